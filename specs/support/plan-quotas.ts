/** Which plans the rate-limit tests can measure, from the plans catalogue, the agreed Enterprise quota and the keys given. */
import { quotaRule } from '../../lib/checks/registry.ts';
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS, plans, type PlanId, type Quota } from '../../lib/plans.ts';
import type { TargetClock } from '../../lib/target-clock.ts';

export const DOCUMENTED_PLANS = PLAN_IDS.filter((plan) => plans[plan].documented !== undefined);

/** Every plan a quota test is declared for: the documented ones, and Enterprise, measured once its quota is agreed. */
export const MEASURED_PLANS: readonly PlanId[] = PLAN_IDS;

export const ENTERPRISE_NOT_AGREED = 'set PETSTORE_ENTERPRISE_PER_MINUTE and PETSTORE_ENTERPRISE_PER_DAY to the agreed quota to certify an Enterprise key';

export function quotaOf(plan: PlanId): Quota {
  const quota = plans[plan].documented;
  if (!quota) throw new Error(`plan ${plan} has no documented quota`);
  return quota;
}

/** The quota a plan's key is held to in this run: the documented one, or Enterprise's agreed one (undefined when none is stated). */
export function quotaInRun(plan: PlanId, agreedEnterprise: Quota | undefined): Quota | undefined {
  return plans[plan].documented ?? (plan === 'enterprise' ? agreedEnterprise : undefined);
}

/** The documented plan with the smallest minute limit among those with keys: the cheapest to run out of. */
export function cheapestPlan(keys: Readonly<KeysByPlan>): PlanId | { skip: string } {
  const usable = DOCUMENTED_PLANS.filter((plan) => keys[plan].length > 0).sort((a, b) => quotaOf(a).perMinute - quotaOf(b).perMinute);
  return usable[0] ?? { skip: `set ${DOCUMENTED_PLANS.map(keyVariable).join(' or ')} to run this` };
}

/** "PLAN-FREE" for free; Enterprise's quota test cites the rule that holds a key to its agreed quota. */
export const planRule = (plan: PlanId): string => quotaRule(plan, plan === 'enterprise' ? 'agreed' : 'documented');

/** "1,000" for a documented plan's quota; Enterprise's titles name its agreement instead, so they stay the same in every run. */
export const quotaWords = (plan: PlanId, pick: (quota: Quota) => number, agreed: string): string => {
  const documented = plans[plan].documented;
  return documented ? count(pick(documented)) : agreed;
};

export const count = (n: number): string => n.toLocaleString('en');

export const article = (word: string): string => (/^[AEIOU]/i.test(word) ? 'an' : 'a');

/** The longest wait for a window, in the target's time, that a minute measurement can afford in a test of `timeoutMs` (real). */
export const maxWindowWaitMs = (timeoutMs: number, clock: TargetClock): number => clock.toTargetMs(Math.max(2_000, Math.floor(timeoutMs / 3)));
