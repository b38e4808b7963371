/**
 * What a limiter that gives its quota back over time may show. A token bucket (or GCRA, the same from outside)
 * of `limit` tokens refilled evenly over `windowMs` holds Remaining whole tokens, and is full again at Reset: so
 * Reset moves forward as tokens are spent, and Remaining rises as they come back. A sliding counter gives back
 * at most as fast. These two functions are the whole of what such a limiter may do that a fixed window may not.
 */
import { ROUNDING_MS, type Reading } from './reading.ts';

/**
 * The most whole tokens that can come back in `elapsedMs` at `limit` per `windowMs`. One can come back as soon
 * as any time passes: the bucket may have been a hair short of its next token.
 */
export function refillAllowance(limit: number, windowMs: number, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : Math.ceil((elapsedMs * limit) / windowMs);
}

/**
 * Whether the reading's Reset is when a bucket of its Limit, refilled evenly over `windowMs` and holding its
 * Remaining in whole tokens (so up to one more in part), is full again: between sending and receiving, give or
 * take Reset's whole-second rounding.
 */
export function fullAtReset(reading: Reading, windowMs: number): boolean {
  const { limit, remaining, reset } = reading;
  if (limit === undefined || remaining === undefined || reset === undefined || limit < 1 || remaining > limit) return false;
  const perToken = windowMs / limit;
  const earliest = reading.sentAt + Math.max(0, limit - remaining - 1) * perToken - ROUNDING_MS;
  const latest = reading.receivedAt + (limit - remaining) * perToken + ROUNDING_MS;
  return reset * 1000 >= earliest && reset * 1000 <= latest;
}

/**
 * The windows over which a bucket would have to refill for every reading's Reset to be when it is full again
 * (fullAtReset), no longer than `longestMs`; undefined when no window fits them all, so they are not a bucket's.
 * How a run learns a bucket's window when it does not know the target's clock.
 */
export function bucketWindowBounds(readings: readonly Reading[], longestMs: number): { atLeastMs: number; atMostMs: number } | undefined {
  let atLeastMs = 0;
  let atMostMs = longestMs;
  for (const { limit, remaining, reset, sentAt, receivedAt } of readings) {
    if (limit === undefined || remaining === undefined || reset === undefined || limit < 1 || remaining >= limit) continue;
    atLeastMs = Math.max(atLeastMs, ((reset * 1000 - receivedAt - ROUNDING_MS) * limit) / (limit - remaining));
    if (limit - remaining - 1 > 0) atMostMs = Math.min(atMostMs, ((reset * 1000 - sentAt + ROUNDING_MS) * limit) / (limit - remaining - 1));
  }
  return atLeastMs <= atMostMs ? { atLeastMs, atMostMs } : undefined;
}
