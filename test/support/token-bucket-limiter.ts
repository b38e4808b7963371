/**
 * A token bucket per subject and window, as Envoy's local rate limit and AWS API Gateway run them: a minute bucket
 * of the minute quota and a day bucket of the day's, each full at first and given back one token at a time, evenly
 * over its window. A legitimate variant of the reference server's fixed windows (RL-GAP-2). Its headers mean what
 * a bucket's do: Remaining is the whole tokens left, Reset when the bucket is full again, and Retry-After when the
 * next token comes. The bucket whose Remaining is lower names itself in the headers.
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision } from '../../reference-server/limiter.ts';
import { ScaledLimiter } from './scaled-limiter.ts';

interface Bucket {
  tokens: number;
  /** When the last whole token was given back. */
  filledAt: number;
}

export class TokenBucketLimiter extends ScaledLimiter {
  private readonly buckets = new Map<string, { minute: Bucket; day: Bucket }>();
  take(subject: string, quota: Quota, now: number): RateDecision {
    const state = this.buckets.get(subject) ?? { minute: { tokens: quota.perMinute, filledAt: now }, day: { tokens: quota.perDay, filledAt: now } };
    this.buckets.set(subject, state);
    const minute = { capacity: quota.perMinute, everyMs: this.minuteMs / quota.perMinute, bucket: refill(state.minute, quota.perMinute, this.minuteMs / quota.perMinute, now) };
    const day = { capacity: quota.perDay, everyMs: this.dayMs / quota.perDay, bucket: refill(state.day, quota.perDay, this.dayMs / quota.perDay, now) };
    const empty = [minute, day].find(({ bucket }) => bucket.tokens < 1);
    if (!empty) {
      minute.bucket.tokens--;
      day.bucket.tokens--;
    }
    const binding = empty ?? (day.bucket.tokens < minute.bucket.tokens ? day : minute);
    const { tokens, filledAt } = binding.bucket;
    const nextTokenAt = filledAt + binding.everyMs;
    const fullAt = tokens >= binding.capacity ? now : nextTokenAt + (binding.capacity - tokens - 1) * binding.everyMs;
    const decision: RateDecision = { admitted: !empty, banned: false, limit: binding.capacity, remaining: tokens, reset: Math.ceil(fullAt / 1000) };
    if (empty) decision.retryAfter = Math.max(1, Math.ceil((nextTokenAt - now) / 1000));
    return decision;
  }
}

/** Gives back the whole tokens due since the last one, up to the capacity. */
function refill(bucket: Bucket, capacity: number, everyMs: number, now: number): Bucket {
  if (bucket.tokens >= capacity) {
    bucket.filledAt = now;
    return bucket;
  }
  const due = Math.floor((now - bucket.filledAt) / everyMs);
  bucket.tokens = Math.min(capacity, bucket.tokens + due);
  bucket.filledAt = bucket.tokens >= capacity ? now : bucket.filledAt + due * everyMs;
  return bucket;
}
