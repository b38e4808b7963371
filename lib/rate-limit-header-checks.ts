/**
 * The rate-limit headers of answers, judged on what they say (every answer's X-RateLimit-Limit, -Remaining and
 * -Reset, a 429's Retry-After) and on when they were said (Reset against when the request left and its answer came).
 * One answer's check (lib/response-checks.ts) and the checks of answers a load generator summed (harness/load/engine)
 * judge with these alike: a sum of answers is judged on its own facts, never as an answer made up to stand for it.
 */
import { RULE } from './checks/registry.ts';
import { plans, type PlanId, type Quota } from './plans.ts';
import { wholeNumber } from './rate-limit-headers.ts';
import { retryAfterMs } from './rate-limiter/retry-after.ts';
import { ROUNDING_MS } from './rate-limiter/reading.ts';
import type { Violation } from './violation.ts';

/** How far a caller that does not say may be off the target's clock. */
const DEFAULT_CLOCK_SKEW_MS = 4_000;
/** No documented window is longer than a day; a Reset further ahead than this is not a window's end. */
const RESET_HORIZON_SECONDS = 2 * 86_400;

/** What the X-RateLimit headers (names in lower case) say, whenever they were said: absent, not whole numbers, or a Limit of no quota of the plan. */
export function rateLimitHeaderProblems(status: number, headers: Readonly<Record<string, string | undefined>>, plan?: PlanId, quota?: Quota): Violation[] {
  const violations: Violation[] = [];
  const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((name) => headers[name] === undefined);
  if (missing.length > 0) violations.push({ rule: RULE['rate-limit-headers-present'], message: `${status} response lacks ${missing.join(', ')}` });
  const limit = wholeNumber(headers['x-ratelimit-limit']);
  const remaining = wholeNumber(headers['x-ratelimit-remaining']);
  if (headers['x-ratelimit-limit'] !== undefined && limit === undefined) {
    violations.push({ rule: RULE['limit-value'], message: `X-RateLimit-Limit "${headers['x-ratelimit-limit']}" is not a whole number` });
  }
  if (headers['x-ratelimit-remaining'] !== undefined && (remaining === undefined || (limit !== undefined && remaining > limit))) {
    violations.push({
      rule: RULE['remaining-value'],
      message: `X-RateLimit-Remaining "${headers['x-ratelimit-remaining']}" is not a whole number from 0 to the limit (${headers['x-ratelimit-limit'] ?? 'absent'})`,
    });
  }
  if (headers['x-ratelimit-reset'] !== undefined && wholeNumber(headers['x-ratelimit-reset']) === undefined) {
    violations.push({ rule: RULE['reset-value'], message: `X-RateLimit-Reset "${headers['x-ratelimit-reset']}" is not a whole number of Unix seconds` });
  }
  const quotaProblem = limitQuotaProblem(limit, plan, quota);
  if (quotaProblem) violations.push(quotaProblem);
  return violations;
}

/** A Limit that is neither of the plan's quotas (`quota`: the plan's in this run, when not the documented one). */
export function limitQuotaProblem(limit: number | undefined, plan?: PlanId, quota?: Quota): Violation | undefined {
  const known = plan ? plans[plan] : undefined;
  const limits = quota ?? known?.documented;
  if (!known || !limits || limit === undefined || limit === limits.perMinute || limit === limits.perDay) return undefined;
  return { rule: RULE['limit-value'], message: `X-RateLimit-Limit is ${limit}, but a ${known.name} key's ${quota ? 'agreed' : 'documented'} limits are ${limits.perMinute} per minute and ${limits.perDay} per day` };
}

/**
 * A Reset (whole Unix seconds) that cannot be a window's end for a request that left at `sentAtMs` and was answered
 * at `nowMs`: before the request left (by more than `clockSkewMs` and Reset's own second), or more than two days ahead.
 */
export function resetTimeProblem(reset: number | undefined, sentAtMs: number, nowMs: number, clockSkewMs?: number): Violation | undefined {
  if (reset === undefined) return undefined;
  const sentSeconds = sentAtMs / 1000;
  if (reset >= sentSeconds - ((clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS) + ROUNDING_MS) / 1000 && reset <= nowMs / 1000 + RESET_HORIZON_SECONDS + (clockSkewMs ?? 0) / 1000) return undefined;
  return {
    rule: RULE['reset-value'],
    message: `X-RateLimit-Reset ${reset} is not a plausible Unix time in seconds (the request left at ${Math.floor(sentSeconds)}; expected from then to two days ahead)`,
  };
}

/** A 429's Retry-After (`answeredAt`: when it came, for an HTTP-date), absent or neither delta-seconds nor an HTTP-date. */
export function retryAfterProblem(retryAfter: string | undefined, answeredAt?: number): Violation | undefined {
  if (retryAfter === undefined) return { rule: RULE['retry-after-present'], message: '429 without a Retry-After header' };
  if (retryAfterMs(retryAfter, answeredAt) === undefined) return { rule: RULE['retry-after-format'], message: `Retry-After "${retryAfter}" is neither delta-seconds nor an HTTP-date` };
  return undefined;
}
