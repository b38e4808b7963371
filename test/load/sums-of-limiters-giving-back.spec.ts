/**
 * Judged from a generator's sums, a limiter that gives quota back (a bucket, a sliding log or counter) moves its Reset
 * as it does, so the admissions under one Reset are not what it had admitted when it refused: a compliant client
 * re-admitted after its wait must not read as refused early, with one generator or two, while a fixed window that
 * refuses early, admits too many or says one Remaining twice still fails from the same sums.
 */
import { expect, test } from '@playwright/test';
import type { KeyResult } from '../../harness/load/runner.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { RepeatingRemainingLimiter } from '../judge/repeating-remaining.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { judgeSummed } from './support/judge.ts';
import { EarlyRefusingLimiter, OverAdmittingLimiter } from './support/limiters.ts';
import { SIMULATION_START, simulate } from './support/simulate.ts';

const SCALE = 60;

/** A Free key's answers to the compliant client, asked for faster than its limit (60 a second, at this time scale). */
function answered(limiter: RateLimiter, perSecond = 90): KeyResult {
  return simulate({ limiter, plan: 'free', behaviour: 'compliant', perSecond, durationMs: 6_000, latencyMs: 3, stepMs: 2 });
}

test('a limiter that gives quota back, re-admitting a compliant client after its wait, is not judged early in refusing from its sums; a fixed window that refuses early still fails', () => {
  for (const generators of [1, 2]) {
    for (const perSecond of [75, 90, 300]) {
      for (const fresh of [() => new TokenBucketLimiter(SCALE), () => new SlidingWindowLimiter(SCALE), () => new SlidingCounterLimiter(SCALE)]) {
        const limiter = fresh();
        const judged = judgeSummed(answered(limiter, perSecond), SIMULATION_START, generators);
        expect(judged.failed, `${limiter.constructor.name} at ${perSecond}/s, ${generators} generator(s)`).toEqual([]);
      }
    }
    // The bucket's Reset moved on as tokens came back: 58 admissions under one Reset, then a 429, is no early refusal.
    const bucket = judgeSummed(answered(new TokenBucketLimiter(SCALE), 75), SIMULATION_START, generators);
    expect(bucket.account.model).toBe('sliding');
    expect(bucket.verdict('first-refusal')).toMatchObject({ status: 'not-checked', detail: expect.stringContaining('admitted again after its own refusal') });
    expect(judgeSummed(answered(new EarlyRefusingLimiter(SCALE)), SIMULATION_START, generators).failed).toContain('first-refusal');
    expect(judgeSummed(answered(new OverAdmittingLimiter(SCALE)), SIMULATION_START, generators).failed).toContain('minute-max');
    expect(judgeSummed(answered(new RepeatingRemainingLimiter(SCALE)), SIMULATION_START, generators).failed).toContain('remaining-steps');
  }
});
