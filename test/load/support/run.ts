/** Runs the real load client against a base URL and returns the summary a live `npm run load` would write. */
import { DEMO_KEYS } from '../../../lib/keys.ts';
import type { PlanId } from '../../../lib/plans.ts';
import { perSecond, type RateSpec } from '../../../harness/load/rate.ts';
import { runLoad } from '../../../harness/load/runner.ts';
import { DEFAULT_MIX, type Behaviour, type Scenario } from '../../../harness/load/scenario.ts';
import { summarise, type KeySummary, type LoadSummary } from '../../../harness/load/summary.ts';
import type { CheckId, Verdict } from '../../../harness/load/verdicts.ts';

export interface KeyPlan {
  plan: PlanId;
  keyNumber: number;
  behaviour: Behaviour;
  rate: RateSpec;
}

export async function runAgainst(baseUrl: string, keys: KeyPlan[], durationMs: number, timeScale: number): Promise<LoadSummary> {
  const scenario: Scenario = {
    name: 'test',
    description: '',
    source: 'test',
    durationMs,
    concurrency: 32,
    timeScale,
    keys: keys.map((key) => ({ ...key, label: `${key.plan} #${key.keyNumber} ${key.behaviour}`, mix: DEFAULT_MIX })),
  };
  const run = await runLoad({
    baseUrl,
    durationMs,
    concurrency: scenario.concurrency,
    seed: 1,
    keys: scenario.keys.map((spec) => ({ spec, key: DEMO_KEYS[spec.plan][spec.keyNumber - 1] as string, perSecond: perSecond(spec.rate, spec.plan, timeScale) })),
  });
  const target = { baseUrl, bundled: true, timeScale, timeScaleSource: 'test', keys: { ...DEMO_KEYS } as never, description: baseUrl, stop: async () => {} };
  return summarise(scenario, target, run);
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
