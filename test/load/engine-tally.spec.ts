/**
 * Reading an engine's aggregated counts back, without running the engine: a stats file as Locust's master
 * writes it, with what several generators counted summed per event name, judged by the built-in verdicts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runFromTallies, readTallies } from '../../harness/load/engine/tally.ts';
import type { RunPlan } from '../../harness/load/engine/locustfile.ts';
import { scenarioFromPlan } from '../../harness/load/engine/locust-engine.ts';
import { summarise } from '../../harness/load/summary.ts';
import { keyOf, verdictOf } from './support/run.ts';

const PLAN: RunPlan = {
  scenario: 'test',
  baseUrl: 'http://127.0.0.1:1/v1',
  durationS: 3,
  usersPerKey: 2,
  timeScale: 60,
  seed: 1,
  keys: [{ label: 'free #1 naive', plan: 'free', keyNumber: 1, keyVariable: 'PETSTORE_API_KEY_FREE', perSecond: 66, behaviour: 'naive', mix: { list: 1, create: 0, get: 0 } }],
};
const RESET = 1_800_000_000;
const HEADER = 'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time';

/** One minute window: each Remaining value admitted `times[value]` times (default once), then `refused` 429s. */
function windowRows(reset: number, times: Record<number, number>, refused: number, retryAfter = '1000'): string[] {
  const rows = Array.from({ length: 60 }, (_, i) => 59 - i).map((remaining) => `QUOTA,pc1|0|200|60|${remaining}|${reset}|-|0,${times[remaining] ?? 1},0,1,1.5`);
  return refused > 0 ? [...rows, `QUOTA,pc1|0|429|60|0|${reset}|${retryAfter}|0,${refused},0,1,0.8`] : rows;
}

function judged(rows: string[]): ReturnType<typeof summarise> {
  const file = join(mkdtempSync(join(tmpdir(), 'tally-')), 'result_stats.csv');
  writeFileSync(file, [HEADER, 'GET,GET /pets,999,0,1,1.2', ...rows, ',Aggregated,999,0,1,1.2'].join('\n'));
  const scenario = scenarioFromPlan(PLAN, file);
  const run = runFromTallies(readTallies(file, PLAN), scenario.keys, PLAN);
  return summarise(scenario, { baseUrl: PLAN.baseUrl, bundled: true, timeScale: 60, timeScaleSource: 'test', description: 'test' }, run);
}

test('windows that admit exactly the limit, summed over generators, pass', () => {
  const summary = judged([...windowRows(RESET, {}, 6), ...windowRows(RESET + 1, {}, 6)]);
  const key = keyOf(summary, 'free #1 naive');
  expect(key.windows.map((w) => [w.admitted, w.refused, w.firstRefusalAt])).toEqual([[60, 6, 61], [60, 6, 61]]);
  for (const check of ['minute-max', 'first-refusal', 'remaining-steps', 'refusal-headers', 'headers-on-every-answer'] as const) expect(verdictOf(key, check).status, check).toBe('pass');
  expect(summary.status).toBe('pass');
});

test('Remaining values handed out to two generators are an over-admission and a broken countdown', () => {
  const summary = judged([...windowRows(RESET, { 30: 2, 12: 2, 3: 2 }, 6), ...windowRows(RESET + 1, {}, 6)]);
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
  expect(verdictOf(key, 'minute-max').evidence[0]).toContain('63 admitted');
  expect(verdictOf(key, 'remaining-steps').evidence[0]).toContain('came twice');
  expect(summary.status).toBe('fail');
});

test('429s without Retry-After, summed over generators, break RL-1', () => {
  const summary = judged(windowRows(RESET, {}, 4, '-'));
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'refusal-headers').status).toBe('fail');
  expect(verdictOf(key, 'refusal-headers').evidence[0]).toContain('RL-1 × 4');
});

test('a stats file that is not this version\'s is one clear error', () => {
  expect(() => judged(['QUOTA,pc0|0|200,1,0,1,1'])).toThrow(/was not written by this version's locustfile.py/);
  expect(() => judged(['QUOTA,pc1|7|200|60|59|1|-|0,1,0,1,1'])).toThrow(/event for key 7/);
});
