/**
 * Which key each kind of test uses, decided from the configured keys alone so every worker decides alike.
 * - Functional tests share the first key of the highest plan given (the most headroom, so they are rarely
 *   throttled and rarely in a measurement's way).
 * - A daily-quota test uses up its key's day, so it gets a key no other test touches: the last key of its
 *   plan that is not the functional key. Without one it cannot run.
 * - Minute-window measurements use the plan's other keys, the functional key last (a measurement on it makes
 *   functional tests wait); only when nothing else is left do they share the daily key, and then may find its
 *   day used up.
 */
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS, type PlanId } from '../../lib/plans.ts';

export interface PlanKey {
  key: string;
  plan: PlanId;
}

export interface KeyRoles {
  functional: PlanKey | undefined;
  /** Candidates for minute-window measurements, in order of preference. */
  measuring: Record<PlanId, string[]>;
  /** The key a daily-quota test may use up, or why there is none. */
  daily: Record<PlanId, { key: string } | { unavailable: string }>;
}

const HIGHEST_FIRST: readonly PlanId[] = [...PLAN_IDS].reverse();

export function keyRoles(keys: Readonly<KeysByPlan>): KeyRoles {
  const functionalPlan = HIGHEST_FIRST.find((plan) => keys[plan].length > 0);
  const functional = functionalPlan ? { key: keys[functionalPlan][0]!, plan: functionalPlan } : undefined;
  const measuring = {} as KeyRoles['measuring'];
  const daily = {} as KeyRoles['daily'];
  for (const plan of PLAN_IDS) {
    const all = [...new Set(keys[plan])];
    const others = all.filter((key) => key !== functional?.key);
    const dailyKey = others.at(-1);
    daily[plan] = dailyKey
      ? { key: dailyKey }
      : {
          unavailable:
            all.length === 0
              ? `set ${keyVariable(plan)} to run this`
              : `the only key in ${keyVariable(plan)} is the one functional tests use; add a second key to ${keyVariable(plan)} to run this`,
        };
    const rest = others.filter((key) => key !== dailyKey);
    const withFunctional = all.includes(functional?.key ?? '') ? [...rest, functional!.key] : rest;
    measuring[plan] = withFunctional.length > 0 ? withFunctional : all;
  }
  return { functional, measuring, daily };
}
