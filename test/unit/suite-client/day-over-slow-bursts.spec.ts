/**
 * Using up a day on a slow machine: a burst that outlasts its fixed window spends part of the next one, whose first
 * answer then has less than a whole window left. That is no sign of a limiter that gives requests back bit by bit,
 * so an admission over the day's quota stays a violation, not a count that proves nothing.
 */
import { expect, test } from '@playwright/test';
import type { TargetClock } from '../../../lib/target-clock.ts';
import { FixedWindowLimiter } from '../../../reference-server/limiter.ts';
import { consumeDay } from '../../../specs/support/daily-quota.ts';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { measuringClient, steppedClock } from './fake-target.ts';

const FREE = { perMinute: 60, perDay: 1_000 };

/** The reference server's windows admitting 1,001 a day while its headers say 1,000; each answer takes `answerMs` of its clock. */
function overAdmittingDay(answerMs: number): { clock: TargetClock; transport: Transport } {
  const { clock, advance } = steppedClock(Date.UTC(2026, 10, 27, 12, 0, 0));
  const limiter = new FixedWindowLimiter();
  const transport: Transport = {
    async send(): Promise<ReceivedResponse> {
      const decision = limiter.take('free-1', { perMinute: FREE.perMinute, perDay: FREE.perDay + 1 }, advance(answerMs));
      const headers = {
        'content-type': 'application/json',
        'x-ratelimit-limit': String(decision.limit === FREE.perDay + 1 ? FREE.perDay : decision.limit),
        'x-ratelimit-remaining': String(decision.remaining),
        'x-ratelimit-reset': String(decision.reset),
      };
      return decision.admitted ? { status: 200, headers, body: '[]' } : { status: 429, headers: { ...headers, 'retry-after': String(decision.retryAfter) }, body: '{"code":"rate_limited","message":"slow down","status":429}' };
    },
  };
  return { clock, transport };
}

test("a burst that outlasts its window is no sign of a day given back: the day's 1,001st admission still fails", async () => {
  // 1.1 s an answer: a window's 60 requests take 66 s, so every window ends during its burst.
  const { clock, transport } = overAdmittingDay(1_100);
  const outcome = await consumeDay(measuringClient(transport, clock, 'PLAN-FREE'), { quota: FREE, fresh: true, admittedBefore: 0, rule: 'PLAN-FREE', windowMs: 60_000 });
  expect(outcome.newDay).toBeUndefined();
  expect(outcome.admitted).toBe(1_001);
  expect(outcome.overQuota).toBeDefined();
});
