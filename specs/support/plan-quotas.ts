/** Which plans the rate-limit tests can measure, from the plans catalogue and the keys given. */
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS, plans, type PlanId, type Quota } from '../../lib/plans.ts';

export const DOCUMENTED_PLANS = PLAN_IDS.filter((plan) => plans[plan].documented !== undefined);

export function quotaOf(plan: PlanId): Quota {
  const quota = plans[plan].documented;
  if (!quota) throw new Error(`plan ${plan} has no documented quota`);
  return quota;
}

/** The documented plan with the smallest minute limit among those with keys: the cheapest to run out of. */
export function cheapestPlan(keys: Readonly<KeysByPlan>): PlanId | { skip: string } {
  const usable = DOCUMENTED_PLANS.filter((plan) => keys[plan].length > 0).sort((a, b) => quotaOf(a).perMinute - quotaOf(b).perMinute);
  return usable[0] ?? { skip: `set ${DOCUMENTED_PLANS.map(keyVariable).join(' or ')} to run this` };
}

/** "PLAN-FREE" for free. */
export const planRule = (plan: PlanId): string => `PLAN-${plan.toUpperCase()}`;

export const count = (n: number): string => n.toLocaleString('en');

/** The longest wait for a window that a minute measurement can afford in a test of `timeoutMs`. */
export const maxWindowWaitMs = (timeoutMs: number): number => Math.max(2_000, Math.floor(timeoutMs / 3));
