/** Durations, rates, flags and scenario files: every mistake gets one line naming what was wrong. */
import { expect, test } from '@playwright/test';
import { parseCli } from '../../harness/load/cli.ts';
import { parseDuration } from '../../harness/load/duration.ts';
import { InputError } from '../../harness/load/input-error.ts';
import { parseRate, perSecond } from '../../harness/load/rate.ts';
import { bundledScenarioNames, loadScenario, validateScenario } from '../../harness/load/scenario.ts';

test('durations take units and reject what is not one', () => {
  expect(parseDuration('90s')).toBe(90_000);
  expect(parseDuration('3m')).toBe(180_000);
  expect(parseDuration('1m30s')).toBe(90_000);
  expect(parseDuration('500ms')).toBe(500);
  expect(parseDuration('1h')).toBe(3_600_000);
  expect(() => parseDuration('90')).toThrow('needs a unit');
  expect(() => parseDuration('soon')).toThrow('is not a duration');
  expect(() => parseDuration('0s')).toThrow('longer than 0');
});

test('rates are per second, a multiple of the plan limit at the time scale, or max', () => {
  expect(perSecond(parseRate('2'), 'free', 1)).toBe(2);
  expect(perSecond(parseRate('1.1x'), 'free', 1)).toBeCloseTo(1.1);
  expect(perSecond(parseRate('1.1x'), 'free', 60)).toBeCloseTo(66);
  expect(perSecond(parseRate('max'), 'free', 60)).toBeUndefined();
  expect(() => parseRate('0')).toThrow('must be above 0');
  expect(() => parseRate('0x')).toThrow('must be above 0');
  expect(() => parseRate('fast')).toThrow('is not a rate');
  expect(() => perSecond(parseRate('1.1x'), 'enterprise', 1)).toThrow('no documented limit');
});

test('every bundled scenario is valid', () => {
  const names = bundledScenarioNames();
  expect(names).toEqual(expect.arrayContaining(['each-plan-over-minute-limit', 'free-whole-day', 'all-plans-side-by-side']));
  for (const name of names) expect(loadScenario(name).keys.length).toBeGreaterThan(0);
});

test('scenario mistakes name the file, the field and the fix', () => {
  const bad = (raw: unknown): string => {
    try {
      validateScenario(raw, 'my.yaml');
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as Error).message;
    }
    throw new Error('expected the scenario to be refused');
  };
  expect(bad([])).toBe('my.yaml: expected a mapping with at least "keys"');
  expect(bad({ keys: [] })).toContain('my.yaml: keys: expected a list of at least one key');
  expect(bad({ keys: [{ plan: 'gold', rate: 1 }] })).toBe('my.yaml: keys[0].plan: unknown plan "gold"; expected one of free, pro, business, enterprise');
  expect(bad({ keys: [{ plan: 'free' }] })).toContain('my.yaml: keys[0].rate: missing');
  expect(bad({ keys: [{ plan: 'free', rate: 0 }] })).toContain('keys[0].rate must be above 0');
  expect(bad({ keys: [{ plan: 'free', rate: 1, behaviour: 'rude' }] })).toContain('keys[0].behaviour: "rude" is not one of compliant, naive');
  expect(bad({ keys: [{ plan: 'free', rate: 1 }], rates: 2 })).toContain('unknown field "rates"');
  expect(bad({ duration: 'long', keys: [{ plan: 'free', rate: 1 }] })).toContain('my.yaml: duration "long" is not a duration');
  expect(bad({ keys: [{ plan: 'free', rate: 1, key: 1 }, { plan: 'free', rate: 1, key: 1 }] })).toContain('keys[1].key: Free key #1 is already used');
  expect(bad({ mix: { list: 1, delete: 1 }, keys: [{ plan: 'free', rate: 1 }] })).toContain('mix: unknown operation "delete"');
});

test('keys of one plan are numbered in order unless a scenario says which', () => {
  const scenario = validateScenario({ keys: [{ plan: 'free', rate: 1 }, { plan: 'free', rate: 1, behaviour: 'naive' }, { plan: 'pro', rate: 1 }] }, 's.yaml');
  expect(scenario.keys.map((key) => key.label)).toEqual(['free #1 compliant', 'free #2 naive', 'pro #1 compliant']);
});

test('flags build the simple case and reject mixed or malformed input', () => {
  const { scenario } = parseCli(['--plan', 'free', '--rate', '2', '--duration', '3m']);
  expect(scenario.durationMs).toBe(180_000);
  expect(scenario.keys).toMatchObject([{ plan: 'free', rate: { kind: 'perSecond', perSecond: 2 }, behaviour: 'compliant' }]);
  expect(parseCli(['--plan', 'free,pro', '--behaviour', 'both']).scenario.keys.map((k) => k.label)).toEqual(['free #1 compliant', 'free #2 naive', 'pro #1 compliant', 'pro #2 naive']);
  expect(() => parseCli(['--plan', 'gold'])).toThrow('--plan: unknown plan "gold"');
  expect(() => parseCli(['--plan', 'free', '--rate', '0'])).toThrow('--rate must be above 0');
  expect(() => parseCli(['--plan', 'free', '--duration', 'forever'])).toThrow('--duration "forever" is not a duration');
  expect(() => parseCli(['--scenario', 'x', '--plan', 'free'])).toThrow('either --scenario or --plan');
  expect(() => parseCli(['--rate', '2'])).toThrow('--rate goes with --plan');
  expect(() => parseCli(['--bogus'])).toThrow(/unknown option --bogus.*--help/);
  expect(() => parseCli(['--scenario', 'nope'])).toThrow('scenario "nope" not found');
});
