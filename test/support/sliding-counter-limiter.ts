/**
 * A sliding-window counter, as Cloudflare and @upstash/ratelimit run it: counts in fixed windows on the clock, and
 * the last window's count weighs as much as it still overlaps a window ending now. Its headers mean what Upstash's
 * do: Remaining is the quota less the whole requests the weighted count holds, Reset the end of the current
 * clock window; so Remaining may rise before Reset as the last window weighs less, never faster than the quota
 * comes back. Retry-After is when the weighted count falls below the quota. A legitimate variant (RL-GAP-2).
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision } from '../../reference-server/limiter.ts';
import { ScaledLimiter } from './scaled-limiter.ts';

interface Counter {
  start: number;
  current: number;
  previous: number;
}

export class SlidingCounterLimiter extends ScaledLimiter {
  private readonly counters = new Map<string, { minute: Counter; day: Counter }>();
  take(subject: string, quota: Quota, now: number): RateDecision {
    const state = this.counters.get(subject) ?? { minute: { start: 0, current: 0, previous: 0 }, day: { start: 0, current: 0, previous: 0 } };
    this.counters.set(subject, state);
    const windows = [
      { counter: roll(state.minute, this.minuteMs, now), limit: quota.perMinute, windowMs: this.minuteMs },
      { counter: roll(state.day, this.dayMs, now), limit: quota.perDay, windowMs: this.dayMs },
    ];
    const full = windows.find(({ counter, limit, windowMs }) => Math.floor(weighted(counter, windowMs, now)) >= limit);
    if (!full) for (const { counter } of windows) counter.current++;
    const left = windows.map((window) => ({ ...window, remaining: Math.max(0, window.limit - Math.floor(weighted(window.counter, window.windowMs, now))) }));
    const binding = full ? left[windows.indexOf(full)]! : left[1]!.remaining < left[0]!.remaining ? left[1]! : left[0]!;
    const decision: RateDecision = { admitted: !full, banned: false, limit: binding.limit, remaining: binding.remaining, reset: Math.ceil((binding.counter.start + binding.windowMs) / 1000) };
    if (full) decision.retryAfter = Math.max(1, Math.ceil((belowLimitAt(full.counter, full.limit, full.windowMs) - now) / 1000));
    return decision;
  }
}

/** Moves the counter to the clock window holding `now`. */
function roll(counter: Counter, windowMs: number, now: number): Counter {
  const start = Math.floor(now / windowMs) * windowMs;
  if (start !== counter.start) {
    counter.previous = start - counter.start === windowMs ? counter.current : 0;
    counter.current = 0;
    counter.start = start;
  }
  return counter;
}

function weighted(counter: Counter, windowMs: number, now: number): number {
  return counter.previous * (1 - (now - counter.start) / windowMs) + counter.current;
}

/** When, with no more requests, the weighted count first falls below `limit`. */
function belowLimitAt(counter: Counter, limit: number, windowMs: number): number {
  const end = counter.start + windowMs;
  // Within this window the last one's weight falls; after it, this window's count is the last one's.
  if (counter.current < limit && counter.previous > 0) return end - ((limit - counter.current) * windowMs) / counter.previous + 1;
  return end + windowMs - (limit * windowMs) / Math.max(counter.current, limit) + 1;
}
