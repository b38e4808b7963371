/**
 * A key given under the wrong plan: its X-RateLimit-Limit is another plan's documented quota and none of its own
 * (a Pro key given as PETSTORE_API_KEY_FREE says 300 where Free says 60 or 1,000). From outside that cannot be
 * told from a server that gives the plan another plan's limits, but the configuration is the likelier cause and
 * the cheaper to check: the tests that need the plan say so and judge nothing on the key, and the verdict names
 * the variable ("Not certified"), never PLAN-x, RL-5 or RL-8 failed. A Limit that is no plan's quota (61, 500) is
 * no configuration a user can get wrong, so it stays the server's failure.
 */
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import { keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS, plans, type PlanId, type Quota } from '../../lib/plans.ts';
import type { Transport } from './exchange.ts';
import { count } from './plan-quotas.ts';

/** The annotation a test adds for each key it found given under the wrong plan: "<the key's name>|<plan>|<plan it answers as>|<Limit>". */
export const MISCONFIGURED_KEY = 'misconfigured-key';

/** The documented plan whose quota `limit` is, when it is none of `quota` (the key's own plan's). */
export function plainlyOtherPlan(plan: PlanId, quota: Quota | undefined, limit: string | undefined): PlanId | undefined {
  if (quota === undefined || limit === undefined || !/^\d+$/.test(limit.trim())) return undefined;
  const value = Number(limit);
  if (windowKind({ limit: value }, quota) !== 'neither') return undefined;
  return PLAN_IDS.find((other) => {
    const documented = plans[other].documented;
    return other !== plan && documented !== undefined && windowKind({ limit: value }, documented) !== 'neither';
  });
}

export interface Misconfiguration {
  /** The key's name ("the 1st key of PETSTORE_API_KEY_FREE"), never the key. */
  name: string;
  plan: PlanId;
  answersAs: PlanId;
  limit: number;
}

/** What a test that needs the key's plan says instead of judging, naming the variable to check. */
export function misconfiguredReason({ name, plan, answersAs, limit }: Misconfiguration): string {
  const quota = plans[answersAs].documented!;
  const which = windowKind({ limit }, quota) === 'minute' ? 'per-minute' : 'per-day';
  const own = plans[plan].documented;
  const ownWords = own ? ` (${count(own.perMinute)} a minute, ${count(own.perDay)} a day)` : '';
  return (
    `likely a configuration error: ${name} answers with X-RateLimit-Limit ${count(limit)}, the ${plans[answersAs].name} plan's documented ${which} quota, ` +
    `not the ${plans[plan].name} plan's${ownWords}; check that ${keyVariable(plan)} holds ${plans[plan].name} keys (no rule is judged on this key)`
  );
}

export const misconfiguredAnnotation = ({ name, plan, answersAs, limit }: Misconfiguration): string => `${name}|${plan}|${answersAs}|${limit}`;

/** The misconfiguration an annotation describes; undefined for one that is not such a description. */
export function parseMisconfiguration(description: string | undefined): Misconfiguration | undefined {
  const [name, plan, answersAs, limit] = (description ?? '').split('|');
  const isPlan = (id: string | undefined): id is PlanId => (PLAN_IDS as readonly string[]).includes(id ?? '');
  if (!name || !isPlan(plan) || !isPlan(answersAs) || !/^\d+$/.test(limit ?? '')) return undefined;
  return { name, plan, answersAs, limit: Number(limit) };
}

/**
 * Watches a key's answers for a Limit that is plainly another plan's: `found` is called once, with the first such
 * answer's reading (a later answer of the same key says the same).
 */
export function watchedPlan(transport: Transport, plan: PlanId, quota: Quota | undefined, name: string, found: (misconfiguration: Misconfiguration) => void): Transport {
  let told = false;
  return {
    async send(request) {
      const response = await transport.send(request);
      const limit = response.headers['x-ratelimit-limit'];
      const answersAs = told ? undefined : plainlyOtherPlan(plan, quota, limit);
      if (answersAs !== undefined) {
        told = true;
        found({ name, plan, answersAs, limit: Number(limit) });
      }
      return response;
    },
  };
}
