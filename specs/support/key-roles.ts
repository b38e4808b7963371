/**
 * The run's keys as a budget, planned from the configured keys alone (so the config and every worker plan alike)
 * before any test runs.
 * - Functional tests share the first key of the highest plan given (the most headroom, so they are rarely
 *   throttled and rarely in a measurement's way).
 * - A daily-quota test uses up its key's day: it gets the last key of its plan that is not the functional key,
 *   or, when the plan has no other, the functional key itself.
 * - Minute-window measurements use the plan's other keys, the functional key last (a measurement on it makes
 *   functional tests wait). With the quota tests on they leave the daily key alone while any other is left;
 *   with them off, no test spends a day and every key measures, so measurements wait side by side.
 * - A daily key that another test also needs (one key per plan) has its day spent last: its daily-quota test
 *   runs after every other test of the run (playwright.config.ts), so no test meets a key whose day is gone.
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
  /** The key a daily-quota test may use up, and whether another test needs it too (its day is then spent last). */
  daily: Record<PlanId, { key: string; shared: boolean } | { unavailable: string }>;
}

const HIGHEST_FIRST: readonly PlanId[] = [...PLAN_IDS].reverse();

export function keyRoles(keys: Readonly<KeysByPlan>, { quotaTests }: { quotaTests: boolean }): KeyRoles {
  const functionalPlan = HIGHEST_FIRST.find((plan) => keys[plan].length > 0);
  const functional = functionalPlan ? { key: keys[functionalPlan][0]!, plan: functionalPlan } : undefined;
  const measuring = {} as KeyRoles['measuring'];
  const daily = {} as KeyRoles['daily'];
  for (const plan of PLAN_IDS) {
    const all = [...new Set(keys[plan])];
    const holdsFunctional = functional !== undefined && all.includes(functional.key);
    const others = all.filter((key) => key !== functional?.key);
    const dailyKey = others.at(-1) ?? (holdsFunctional ? functional.key : undefined);
    const spared = quotaTests ? others.filter((key) => key !== dailyKey) : others;
    const candidates = holdsFunctional ? [...spared, functional.key] : spared;
    measuring[plan] = candidates.length > 0 ? candidates : all;
    daily[plan] =
      dailyKey === undefined
        ? { unavailable: `set ${keyVariable(plan)} to run this` }
        : { key: dailyKey, shared: measuring[plan].includes(dailyKey) || dailyKey === functional?.key };
  }
  return { functional, measuring, daily };
}

/** The plans whose daily-quota test must wait for every other test: its key serves other tests too. */
export function plansSpendingADayLast(keys: Readonly<KeysByPlan>, quotaTests: boolean): PlanId[] {
  if (!quotaTests) return [];
  const { daily } = keyRoles(keys, { quotaTests });
  return PLAN_IDS.filter((plan) => {
    const role = daily[plan];
    return 'key' in role && role.shared;
  });
}
