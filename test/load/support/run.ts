/** Runs the real load client (or Locust) against a base URL and returns the summary a live `npm run load` would write. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEYS, type KeysByPlan } from '../../../lib/keys.ts';
import type { PlanId } from '../../../lib/plans.ts';
import { perSecond, type RateSpec } from '../../../harness/load/rate.ts';
import { runPlanOf, runWithLocust } from '../../../harness/load/engine/locust-engine.ts';
import { runLoad, type RunKey, type RunOptions } from '../../../harness/load/runner.ts';
import { DEFAULT_MIX, type Behaviour, type Scenario } from '../../../harness/load/scenario.ts';
import { summarise, type JudgedTarget, type KeySummary, type LoadSummary } from '../../../harness/load/summary.ts';
import type { CheckId, Verdict } from '../../../harness/load/verdicts/verdict.ts';

export interface KeyPlan {
  plan: PlanId;
  keyNumber: number;
  behaviour: Behaviour;
  rate: RateSpec;
}

/** `onProgress`: the live view, as the console shows it every `progressIntervalMs`; `requestTimeoutMs`: when the client gives up on an answer. */
export async function runAgainst(baseUrl: string, keys: KeyPlan[], durationMs: number, timeScale: number, concurrency = 32, apiKeys: KeysByPlan = DEMO_KEYS, live: Pick<RunOptions, 'onProgress' | 'progressIntervalMs' | 'requestTimeoutMs'> = {}): Promise<LoadSummary> {
  const scenario = scenarioOf(keys, durationMs, timeScale, concurrency);
  const run = await runLoad({ baseUrl, durationMs, concurrency, seed: 1, keys: runKeys(scenario, timeScale, apiKeys), ...live });
  return summarise(scenario, targetOf(baseUrl, timeScale), run);
}

/** The same, from Locust's master and `workers` worker processes on this machine, read back from the master's counts. */
export async function runEngineAgainst(baseUrl: string, keys: KeyPlan[], durationMs: number, timeScale: number, workers = 2, apiKeys: KeysByPlan = DEMO_KEYS): Promise<LoadSummary> {
  const scenario = scenarioOf(keys, durationMs, timeScale, 32);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-locust-'));
  try {
    const plan = runPlanOf(scenario, runKeys(scenario, timeScale, apiKeys), baseUrl, timeScale, 1, workers);
    const run = await runWithLocust({ plan, dir, workers, keys: { ...apiKeys }, scenario, say: () => {} });
    return summarise(scenario, targetOf(baseUrl, timeScale), run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function scenarioOf(keys: KeyPlan[], durationMs: number, timeScale: number, concurrency: number): Scenario {
  return {
    name: 'test',
    description: '',
    source: 'test',
    durationMs,
    concurrency,
    timeScale,
    keys: keys.map((key) => ({ ...key, label: `${key.plan} #${key.keyNumber} ${key.behaviour}`, mix: DEFAULT_MIX })),
  };
}

export function runKeys(scenario: Scenario, timeScale: number, apiKeys: KeysByPlan): RunKey[] {
  return scenario.keys.map((spec) => ({ spec, key: apiKeys[spec.plan][spec.keyNumber - 1] as string, perSecond: perSecond(spec.rate, spec.plan, timeScale) }));
}

function targetOf(baseUrl: string, timeScale: number): JudgedTarget {
  return { baseUrl, bundled: true, timeScale, timeScaleSource: 'test', description: baseUrl };
}

export function keyOf(summary: LoadSummary, label: string): KeySummary {
  const key = summary.keys.find((candidate) => candidate.label === label);
  if (!key) throw new Error(`no key ${label} in the summary; have ${summary.keys.map((k) => k.label).join(', ')}`);
  return key;
}

export function verdictOf(key: KeySummary, check: CheckId): Verdict {
  const found = key.verdicts.find((verdict) => verdict.check === check);
  if (!found) throw new Error(`${key.label} has no ${check} verdict`);
  return found;
}

export const overLimit = (multiple: number): RateSpec => ({ kind: 'ofLimit', multiple });
