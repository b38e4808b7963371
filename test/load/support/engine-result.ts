/**
 * A petstore-result.json as the Locust master writes it (every generator's answers summed per key and per target
 * window), made by hand and judged as `load --verdicts-from` judges it, without running Locust.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultFromFile, scenarioFromPlan } from '../../../harness/load/engine/locust-engine.ts';
import { RESULT_FORMAT, type AdmittedPhase, type LatencyTally, type LooseTally, type RefusedPhase, type WindowTally } from '../../../harness/load/engine/result.ts';
import { clientPlan, type RunPlan } from '../../../harness/load/engine/run-plan.ts';
import type { Behaviour } from '../../../harness/load/scenario.ts';
import { summarise } from '../../../harness/load/summary.ts';

export function planOf(behaviour: Behaviour): RunPlan {
  const label = `free #1 ${behaviour}`;
  return {
    scenario: 'test',
    baseUrl: 'http://127.0.0.1:1/v1',
    durationS: 3,
    usersPerKey: 2,
    timeScale: 60,
    seed: 1,
    client: clientPlan(),
    keys: [{ label, plan: 'free', keyNumber: 1, count: 1, index: 0, keyVariable: 'PETSTORE_API_KEY_FREE', perSecond: 66, behaviour, mix: { list: 1, create: 0, get: 0 } }],
  };
}

export const START = 1_795_687_200_000;

/** `count` answers sent evenly from `from` to `to` (Unix ms), each answered 2 ms later, all 200. */
export function phase(count: number, from: number, to: number): Omit<AdmittedPhase, 'remaining'> {
  return { count, firstSent: count ? from : null, lastSent: count ? to : null, firstDone: count ? from + 2 : null, lastDone: count ? to + 2 : null, retries: 0, statuses: count ? { '200': count } : {} };
}

export function admittedCount(remaining: ReadonlyArray<readonly [number, number, number]>): number {
  return remaining.reduce((sum, [high, low, times]) => sum + (high - low + 1) * times, 0);
}

/** A 1-s window starting `second` s into the run: Remaining runs as given, then `refused` 429s with Retry-After `wait`. */
export function window(second: number, remaining: Array<[number, number, number]>, refused: number, wait = '1000'): WindowTally {
  const from = START + second * 1000;
  const refusals: RefusedPhase = { ...phase(refused, from + 600, from + 900), statuses: refused ? { '429': refused } : {}, waits: refused ? { [wait]: refused } : {} };
  return { key: 0, limit: 60, reset: Math.ceil(from / 1000) + 1, admitted: { ...phase(admittedCount(remaining), from, from + 500), remaining }, refused: refusals, late: { ...phase(0, 0, 0), remaining: [] } };
}

/** `generators`: the generators whose reports reached the master (two unless said). */
export function judged(windows: WindowTally[], format = RESULT_FORMAT, behaviour: Behaviour = 'naive', loose: LooseTally[] = [], latency: LatencyTally[] = [], generators = ['a', 'b']): ReturnType<typeof summarise> {
  const plan = planOf(behaviour);
  const file = join(mkdtempSync(join(tmpdir(), 'engine-result-')), 'petstore-result.json');
  writeFileSync(file, JSON.stringify({ format, generators, heldBack: [], windows, loose, latency }));
  const scenario = scenarioFromPlan(plan, file);
  return summarise(scenario, { baseUrl: plan.baseUrl, bundled: true, timeScale: 60, timeScaleSource: 'test', description: 'test' }, resultFromFile(file, scenario, plan));
}
