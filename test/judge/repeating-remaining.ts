/**
 * A broken fixed-window limiter: it counts right, but says every other Remaining twice (59, 58, 58, 56, 56, …), so
 * its countdown does not fall where a fixed window's must. Its windows still give the whole quota back at Reset.
 */
import type { Quota } from '../../lib/plans.ts';
import { FixedWindowLimiter, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';

export class RepeatingRemainingLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;

  constructor(timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: Number.MAX_SAFE_INTEGER });
  }

  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.inner.take(subject, quota, now);
    if (!decision.admitted) return decision;
    return { ...decision, remaining: Math.min(decision.limit - 1, decision.remaining + (decision.remaining % 2)) };
  }
}
