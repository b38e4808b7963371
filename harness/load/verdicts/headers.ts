/**
 * The one-answer checks a key's 429s are held to, in load, each its own verdict: Retry-After present and readable,
 * and Remaining and Reset each a value a window can have (lib/response-checks.ts, on every 429 as it came, or on the
 * sums of them). Whether the X-RateLimit headers are there, and a Limit the plan's, rate-limit-headers-present judges
 * on every answer alike, 429s too.
 */
import { plans, type PlanId } from '../../../lib/plans.ts';
import type { KeyResult } from '../runner.ts';
import type { KeyAccount } from '../windows.ts';
import { RULE, rulesOf } from '../../../lib/checks/registry.ts';
import { count, verdict, type Verdict } from './verdict.ts';

/** Each check, and what it holds every 429 to. */
const REFUSAL_CHECKS = {
  'retry-after-present': 'Every 429 carries Retry-After',
  'retry-after-format': "Every 429's Retry-After is delta-seconds or an HTTP-date",
  'remaining-value': "Every 429's X-RateLimit-Remaining is a whole number from 0 to the limit",
  'reset-value': "Every 429's X-RateLimit-Reset is a plausible Unix time, not before the request left",
} as const;

export function refusalVerdicts(result: KeyResult): Verdict[] {
  return Object.entries(REFUSAL_CHECKS).map(([name, title]) => {
    const check = name as keyof typeof REFUSAL_CHECKS;
    const rules = rulesOf(check);
    if (result.refused === 0) return verdict(check, rules, 'not-checked', title, 'No request was refused.');
    if (check === 'retry-after-format' && result.refusalFindings[RULE['retry-after-present']]?.count === result.refused) return verdict(check, rules, 'not-checked', title, 'No 429 carried a Retry-After.');
    const found = result.refusalFindings[RULE[check]];
    if (found) return verdict(check, rules, 'fail', title, `${count(found.count, '429')} of ${result.refused} broke it.`, [`${RULE[check]} × ${found.count}: ${found.example}`]);
    return verdict(check, rules, 'pass', title, `All ${count(result.refused, '429')} kept it.`);
  });
}

export function headersOnEveryAnswer(result: KeyResult, account: KeyAccount, plan: PlanId): Verdict {
  const documented = plans[plan].documented;
  const title = documented
    ? `Every answer carries X-RateLimit-Limit, -Remaining and -Reset, with the limit ${documented.perMinute} or ${documented.perDay.toLocaleString('en-US')}`
    : 'Every answer carries X-RateLimit-Limit, -Remaining and -Reset';
  // The headers' presence, and where the plan's quotas are documented, the Limit naming one (limit-value's idea).
  // A 429's Limit, held to the plan's quotas as it came (or as its window's sums say): limit-value's idea too.
  const refusedLimit = result.refusalFindings[RULE['limit-value']];
  const rules = documented || refusedLimit ? [...rulesOf('rate-limit-headers-present'), ...rulesOf('limit-value')] : rulesOf('rate-limit-headers-present');
  const answered = result.admitted + result.refused;
  if (answered === 0) return verdict('rate-limit-headers-present', rules, 'not-checked', title, 'No answer came.');
  const evidence: string[] = [];
  if (result.withoutRateLimitHeaders > 0) evidence.push(`${count(result.withoutRateLimitHeaders, 'answer')} lacked a readable X-RateLimit-Limit, -Remaining or -Reset`);
  for (const [limit, times] of account.undocumentedLimits) evidence.push(`X-RateLimit-Limit ${limit} on ${count(times, 'answer')}: not a documented quota of this plan`);
  if (refusedLimit) evidence.push(`${RULE['limit-value']} × ${refusedLimit.count}: ${refusedLimit.example}`);
  if (evidence.length > 0) return verdict('rate-limit-headers-present', rules, 'fail', title, `${evidence.length} problem${evidence.length > 1 ? 's' : ''}:`, evidence);
  return verdict('rate-limit-headers-present', rules, 'pass', title, `All ${count(answered, 'answer')} had them${documented ? ', naming a documented limit' : ''}.`);
}
