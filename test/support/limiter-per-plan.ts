/**
 * A server whose plans run on different kinds of limiter (a gateway in front of older and newer services does
 * this): each plan's limiter is chosen by the plan's minute quota. One suite run so meets every kind at once.
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision, RateLimiter } from '../../reference-server/limiter.ts';

export class LimiterPerPlan implements RateLimiter {
  constructor(
    private readonly byMinuteQuota: ReadonlyMap<number, RateLimiter>,
    private readonly otherwise: RateLimiter,
  ) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    return (this.byMinuteQuota.get(quota.perMinute) ?? this.otherwise).take(subject, quota, now);
  }
}
