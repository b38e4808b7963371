/**
 * Reading the Locust engine's result back, without running Locust: a petstore-result.json as the master
 * writes it (every generator's answers summed per key and per target window) judged by the built-in verdicts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { resultFromFile, scenarioFromPlan } from '../../harness/load/engine/locust-engine.ts';
import { RESULT_FORMAT, type AdmittedPhase, type RefusedPhase, type WindowTally } from '../../harness/load/engine/result.ts';
import { clientPlan, type RunPlan } from '../../harness/load/engine/run-plan.ts';
import { summarise } from '../../harness/load/summary.ts';
import { keyOf, verdictOf } from './support/run.ts';

const PLAN: RunPlan = {
  scenario: 'test',
  baseUrl: 'http://127.0.0.1:1/v1',
  durationS: 3,
  usersPerKey: 2,
  timeScale: 60,
  seed: 1,
  client: clientPlan(),
  keys: [{ label: 'free #1 naive', plan: 'free', keyNumber: 1, count: 1, index: 0, keyVariable: 'PETSTORE_API_KEY_FREE', perSecond: 66, behaviour: 'naive', mix: { list: 1, create: 0, get: 0 } }],
};
const START = 1_795_687_200_000;

function phase(count: number, from: number, to: number): Omit<AdmittedPhase, 'remaining'> {
  return { count, firstSent: count ? from : null, lastSent: count ? to : null, firstDone: count ? from + 2 : null, lastDone: count ? to + 2 : null, latencyMs: 2 * count, retries: 0, statuses: count ? { '200': count } : {} };
}

/** A 1-s window starting `second` s into the run: Remaining runs as given, then `refused` 429s with Retry-After `wait`. */
function window(second: number, remaining: Array<[number, number, number]>, refused: number, wait = '1000'): WindowTally {
  const from = START + second * 1000;
  const admitted = remaining.reduce((sum, [high, low, times]) => sum + (high - low + 1) * times, 0);
  const refusals: RefusedPhase = { ...phase(refused, from + 600, from + 900), statuses: refused ? { '429': refused } : {}, waits: refused ? { [wait]: refused } : {} };
  return { key: 0, limit: 60, reset: Math.ceil(from / 1000) + 1, admitted: { ...phase(admitted, from, from + 500), remaining }, refused: refusals, late: { ...phase(0, 0, 0), remaining: [] } };
}

function judged(windows: WindowTally[], format = RESULT_FORMAT): ReturnType<typeof summarise> {
  const file = join(mkdtempSync(join(tmpdir(), 'engine-result-')), 'petstore-result.json');
  writeFileSync(file, JSON.stringify({ format, generators: ['a', 'b'], heldBack: [], windows, loose: [] }));
  const scenario = scenarioFromPlan(PLAN, file);
  return summarise(scenario, { baseUrl: PLAN.baseUrl, bundled: true, timeScale: 60, timeScaleSource: 'test', description: 'test' }, resultFromFile(file, scenario, PLAN));
}

test('windows that admit exactly the limit, summed over generators, pass', () => {
  const summary = judged([window(0, [[59, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]);
  const key = keyOf(summary, 'free #1 naive');
  // Sums hold no order: which request the first 429 answered is not known, only that the limit was admitted.
  expect(key.windows.map((w) => [w.admitted, w.refused, w.firstRefusalAt])).toEqual([[60, 6, undefined], [60, 6, undefined]]);
  for (const check of ['minute-max', 'first-refusal', 'remaining-steps', 'refusal-headers', 'headers-on-every-answer'] as const) expect(verdictOf(key, check).status, check).toBe('pass');
  expect(verdictOf(key, 'reset-stable')).toMatchObject({ status: 'not-checked', detail: expect.stringContaining('order within a window is not measured') });
  expect(summary.status).toBe('pass');
});

test('Remaining values handed out to two generators are an over-admission and a broken countdown', () => {
  const summary = judged([window(0, [[59, 31, 1], [30, 30, 2], [29, 13, 1], [12, 12, 2], [11, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]);
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
  expect(verdictOf(key, 'minute-max').evidence[0]).toContain('62 admitted');
  expect(verdictOf(key, 'remaining-steps').evidence[0]).toContain('came twice');
  expect(summary.status).toBe('fail');
});

test('429s without Retry-After, summed over generators, break RL-1', () => {
  const summary = judged([window(0, [[59, 0, 1]], 4, '-')]);
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'refusal-headers').status).toBe('fail');
  expect(verdictOf(key, 'refusal-headers').evidence[0]).toContain('RL-1 × 4');
});

test("a result that is not this version's, or of another export, is one clear error", () => {
  expect(() => judged([], 'petstore-locust-result/1')).toThrow(/was not written by this version's locustfile.py/);
  expect(() => judged([{ ...window(0, [[59, 0, 1]], 0), key: 7 }])).toThrow(/answers for key 7/);
});
