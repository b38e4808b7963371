/**
 * A load scenario: which keys send, how fast, how (compliant or naive), with which mix of operations, for
 * how long. Read from YAML under fixtures/load/ or built from flags; every problem names the file, the
 * field and what would be right.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { fixturePath } from '../../lib/fixtures.ts';
import { parsePlanId, plans, type PlanId } from '../../lib/plans.ts';
import { parseDuration } from './duration.ts';
import { InputError } from './input-error.ts';
import { parseRate, type RateSpec } from './rate.ts';

export const BEHAVIOURS = ['compliant', 'naive'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export const LOAD_OPERATIONS = ['list', 'create', 'get'] as const;
export type LoadOperation = (typeof LOAD_OPERATIONS)[number];
export type Mix = Record<LoadOperation, number>;

export const DEFAULT_MIX: Readonly<Mix> = { list: 70, create: 20, get: 10 };
export const DEFAULT_CONCURRENCY = 64;
export const DEFAULT_DURATION_MS = 10_000;
export const DEFAULT_SCENARIO = 'each-plan-over-minute-limit';

export interface ScenarioKey {
  /** "free #1 compliant": plan, which of the plan's keys, behaviour. Never the key itself. */
  label: string;
  plan: PlanId;
  /** 1-based position in PETSTORE_API_KEY_<PLAN> (or the demo keys). */
  keyNumber: number;
  rate: RateSpec;
  behaviour: Behaviour;
  mix: Mix;
}

export interface Scenario {
  name: string;
  description: string;
  /** The file it came from, relative to the repository when it is a bundled one, or "command-line flags". */
  source: string;
  durationMs: number;
  /** Cap on requests in flight across all keys. */
  concurrency: number;
  /** The bundled server's PETSTORE_TIME_SCALE for this scenario; also what "1.1x" rates are scaled by. */
  timeScale: number | undefined;
  keys: ScenarioKey[];
}

const SCENARIO_FIELDS = ['name', 'description', 'duration', 'concurrency', 'timeScale', 'mix', 'keys'];
const KEY_FIELDS = ['plan', 'key', 'count', 'rate', 'behaviour', 'mix'];
/** Keys one scenario may name: enough for thousands of tenants, few enough for one report. */
export const MAX_KEYS = 100_000;

/** Scenario names under fixtures/load/, for --help and for "unknown scenario" errors. */
export function bundledScenarioNames(): string[] {
  return readdirSync(fixturePath('load'))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
}

/** `name` is a bundled scenario's name (fixtures/load/<name>.yaml) or a path to a YAML file. */
export function loadScenario(name: string): Scenario {
  const bundled = fixturePath('load', `${name}.yaml`);
  const path = existsSync(bundled) ? bundled : resolve(name);
  const source = existsSync(bundled) ? `fixtures/load/${name}.yaml` : name;
  if (!existsSync(path)) {
    throw new InputError(`scenario "${name}" not found: give a file path or one of ${bundledScenarioNames().join(', ')}`);
  }
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new InputError(`${source}: not valid YAML: ${reason}`);
  }
  return validateScenario(raw, source, basename(path, '.yaml'));
}

/** Checks a parsed scenario document and fills in defaults. */
export function validateScenario(raw: unknown, source: string, fallbackName = 'scenario'): Scenario {
  const fail = (where: string, problem: string): never => {
    throw new InputError(`${source}: ${where ? `${where}: ` : ''}${problem}`);
  };
  if (!isRecord(raw)) return fail('', 'expected a mapping with at least "keys"');
  unknownFields(raw, SCENARIO_FIELDS, '', fail);
  const mix = raw.mix === undefined ? { ...DEFAULT_MIX } : parseMix(raw.mix, 'mix', fail);
  if (!Array.isArray(raw.keys) || raw.keys.length === 0) return fail('keys', 'expected a list of at least one key, e.g. - { plan: free, rate: 1.1x }');
  const timeScale = raw.timeScale === undefined ? undefined : positive(raw.timeScale, 'timeScale', fail);
  const next: Partial<Record<PlanId, number>> = {};
  const taken = new Set<string>();
  const keys = raw.keys.flatMap((entry: unknown, index: number): ScenarioKey[] => {
    const where = `keys[${index}]`;
    if (!isRecord(entry)) return fail(where, 'expected a mapping such as { plan: free, rate: 1.1x }');
    unknownFields(entry, KEY_FIELDS, where, fail);
    if (typeof entry.plan !== 'string') return fail(`${where}.plan`, 'missing; one of free, pro, business, enterprise');
    const plan = attempt(() => parsePlanId(entry.plan as string), `${where}.plan`, fail);
    const first = entry.key === undefined ? (next[plan] ?? 1) : wholeNumber(entry.key, `${where}.key`, fail);
    // count: that many keys of the plan, numbered on from `key` (the first of PETSTORE_API_KEY_<PLAN>'s keys they take).
    const count = entry.count === undefined ? 1 : wholeNumber(entry.count, `${where}.count`, fail);
    if (count > MAX_KEYS) return fail(`${where}.count`, `at most ${MAX_KEYS.toLocaleString('en-US')} keys, got ${count}`);
    next[plan] = Math.max(next[plan] ?? 1, first + count);
    if (entry.rate === undefined) return fail(`${where}.rate`, 'missing; requests per second (2), a multiple of the limit (1.1x) or max');
    const rate = attempt(() => parseRate(String(entry.rate), `${where}.rate`), '', fail);
    const behaviour = entry.behaviour ?? 'compliant';
    if (!BEHAVIOURS.includes(behaviour as Behaviour)) return fail(`${where}.behaviour`, `"${String(behaviour)}" is not one of ${BEHAVIOURS.join(', ')}`);
    const keyMix = entry.mix === undefined ? mix : parseMix(entry.mix, `${where}.mix`, fail);
    return Array.from({ length: count }, (_, offset) => {
      const keyNumber = first + offset;
      if (taken.has(`${plan} ${keyNumber}`)) {
        return fail(`${where}.key`, `${plans[plan].name} key #${keyNumber} is already used by another entry; the verdicts need one entry per key`);
      }
      taken.add(`${plan} ${keyNumber}`);
      return { label: `${plan} #${keyNumber} ${behaviour as Behaviour}`, plan, keyNumber, rate, behaviour: behaviour as Behaviour, mix: keyMix };
    });
  });
  if (keys.length > MAX_KEYS) return fail('keys', `at most ${MAX_KEYS.toLocaleString('en-US')} keys in all, got ${keys.length.toLocaleString('en-US')}`);
  return {
    name: typeof raw.name === 'string' ? raw.name : fallbackName,
    description: typeof raw.description === 'string' ? raw.description.trim() : '',
    source,
    durationMs: raw.duration === undefined ? DEFAULT_DURATION_MS : attempt(() => parseDuration(String(raw.duration)), '', fail),
    concurrency: raw.concurrency === undefined ? DEFAULT_CONCURRENCY : wholeNumber(raw.concurrency, 'concurrency', fail),
    timeScale,
    keys,
  };
}

/** "list=70,create=20,get=10" or a mapping; weights need not add up to 100. */
export function parseMix(raw: unknown, where: string, fail: (where: string, problem: string) => never): Mix {
  let entries: Array<[string, unknown]>;
  if (typeof raw === 'string') {
    entries = raw.split(',').filter((part) => part.trim() !== '').map((part) => {
      const [name, weight] = part.split('=');
      return [(name ?? '').trim(), weight === undefined ? undefined : Number(weight)];
    });
  } else if (isRecord(raw)) entries = Object.entries(raw);
  else return fail(where, 'expected weights such as { list: 70, create: 20, get: 10 }');
  const mix: Mix = { list: 0, create: 0, get: 0 };
  for (const [name, weight] of entries) {
    if (!LOAD_OPERATIONS.includes(name as LoadOperation)) return fail(where, `unknown operation "${name}"; use ${LOAD_OPERATIONS.join(', ')}`);
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) return fail(where, `the weight of ${name} must be a number of 0 or more`);
    mix[name as LoadOperation] = weight;
  }
  if (mix.list + mix.create + mix.get <= 0) return fail(where, 'at least one operation needs a weight above 0');
  return mix;
}

function unknownFields(record: Record<string, unknown>, allowed: readonly string[], where: string, fail: (where: string, problem: string) => never): void {
  for (const field of Object.keys(record)) {
    if (!allowed.includes(field)) fail(where, `unknown field "${field}" (expected ${allowed.join(', ')})`);
  }
}

function wholeNumber(value: unknown, where: string, fail: (where: string, problem: string) => never): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return fail(where, `expected a whole number of 1 or more, got ${JSON.stringify(value)}`);
  return value;
}

function positive(value: unknown, where: string, fail: (where: string, problem: string) => never): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return fail(where, `expected a number above 0, got ${JSON.stringify(value)}`);
  return value;
}

function attempt<T>(run: () => T, where: string, fail: (where: string, problem: string) => never): T {
  try {
    return run();
  } catch (error) {
    return fail(where, error instanceof Error ? error.message : String(error));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
