/** Every 429 carries Retry-After and the X-RateLimit headers, and every answer the headers, naming a quota of the plan. */
import { plans, type PlanId } from '../../../lib/plans.ts';
import type { KeyResult } from '../runner.ts';
import type { KeyAccount } from '../windows.ts';
import { rulesOf } from '../../../lib/checks/registry.ts';
import { count, verdict, type Verdict } from './verdict.ts';

export function refusalHeaders(result: KeyResult): Verdict {
  const title = 'Every 429 carries Retry-After (delta-seconds or an HTTP-date) and the X-RateLimit headers';
  const rules = rulesOf('refusal-headers');
  if (result.refused === 0) return verdict('refusal-headers', rules, 'not-checked', title, 'No request was refused.');
  const findings = Object.entries(result.refusalFindings).filter(([rule]) => rules.includes(rule));
  const other = Object.entries(result.refusalFindings).filter(([rule]) => !rules.includes(rule));
  const evidence = [...findings, ...other].map(([rule, finding]) => `${rule} × ${finding.count}: ${finding.example}`);
  if (findings.length > 0 || other.length > 0) {
    return verdict('refusal-headers', [...rules, ...other.map(([rule]) => rule)], 'fail', title, `Problems on the ${count(result.refused, '429')}:`, evidence);
  }
  return verdict('refusal-headers', rules, 'pass', title, `All ${count(result.refused, '429')} had a valid Retry-After and all three X-RateLimit headers.`);
}

export function headersOnEveryAnswer(result: KeyResult, account: KeyAccount, plan: PlanId): Verdict {
  const documented = plans[plan].documented;
  const title = documented
    ? `Every answer carries X-RateLimit-Limit, -Remaining and -Reset, with the limit ${documented.perMinute} or ${documented.perDay.toLocaleString('en-US')}`
    : 'Every answer carries X-RateLimit-Limit, -Remaining and -Reset';
  // The headers' presence, and where the plan's quotas are documented, the Limit naming one (limit-value's idea).
  const rules = documented ? [...rulesOf('rate-limit-headers-present'), ...rulesOf('limit-value')] : rulesOf('rate-limit-headers-present');
  const answered = result.admitted + result.refused;
  if (answered === 0) return verdict('rate-limit-headers-present', rules, 'not-checked', title, 'No answer came.');
  const evidence: string[] = [];
  if (result.withoutRateLimitHeaders > 0) evidence.push(`${count(result.withoutRateLimitHeaders, 'answer')} lacked a readable X-RateLimit-Limit, -Remaining or -Reset`);
  for (const [limit, times] of account.undocumentedLimits) evidence.push(`X-RateLimit-Limit ${limit} on ${count(times, 'answer')}: not a documented quota of this plan`);
  if (evidence.length > 0) return verdict('rate-limit-headers-present', rules, 'fail', title, `${evidence.length} problem${evidence.length > 1 ? 's' : ''}:`, evidence);
  return verdict('rate-limit-headers-present', rules, 'pass', title, `All ${count(answered, 'answer')} had them${documented ? ', naming a documented limit' : ''}.`);
}
