/**
 * A token bucket: a legitimate limiter the spec allows (RL-GAP-2), of the kind that gives its quota back bit
 * by bit. A minute's quota of tokens, refilled evenly over the (scaled) minute; Remaining is the whole tokens
 * left, Reset when the bucket is full again, so Reset moves forward as tokens are spent and Remaining rises as
 * they come back. The day is not limited: the judge's tests run for seconds.
 */
import type { Quota } from '../../lib/plans.ts';
import { MINUTE_MS, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly timeScale = 1) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    const perTokenMs = MINUTE_MS / this.timeScale / quota.perMinute;
    const bucket = this.buckets.get(subject) ?? { tokens: quota.perMinute, at: now };
    bucket.tokens = Math.min(quota.perMinute, bucket.tokens + (now - bucket.at) / perTokenMs);
    bucket.at = now;
    this.buckets.set(subject, bucket);
    const admitted = bucket.tokens >= 1;
    if (admitted) bucket.tokens -= 1;
    const fullAt = now + (quota.perMinute - bucket.tokens) * perTokenMs;
    const decision: RateDecision = { admitted, banned: false, limit: quota.perMinute, remaining: Math.floor(bucket.tokens), reset: Math.ceil(fullAt / 1000) };
    if (!admitted) decision.retryAfter = Math.max(1, Math.ceil(((1 - bucket.tokens) * perTokenMs) / 1000));
    return decision;
  }
}
