/**
 * The generic cell rate algorithm (GCRA), as redis-cell and the throttled and limiter libraries run it: per
 * subject and window one theoretical arrival time (TAT), pushed on by one emission interval (window / quota) per
 * admitted request; a request is admitted while the TAT lies less than a whole window ahead. From outside it is a
 * token bucket refilled continuously: Remaining is how many more fit now, Reset the TAT (when all fit again), and
 * Retry-After when the next one fits. A legitimate variant of the reference server's fixed windows (RL-GAP-2).
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision } from '../../reference-server/limiter.ts';
import { ScaledLimiter } from './scaled-limiter.ts';

const EPSILON_MS = 1e-6;

export class GcraLimiter extends ScaledLimiter {
  private readonly arrivals = new Map<string, { minute: number; day: number }>();
  take(subject: string, quota: Quota, now: number): RateDecision {
    const tat = this.arrivals.get(subject) ?? { minute: now, day: now };
    const minute = cell(Math.max(tat.minute, now), quota.perMinute, this.minuteMs, now);
    const day = cell(Math.max(tat.day, now), quota.perDay, this.dayMs, now);
    const refusing = [minute, day].find((window) => !window.fits);
    if (!refusing) {
      tat.minute = minute.tat + minute.emissionMs;
      tat.day = day.tat + day.emissionMs;
      this.arrivals.set(subject, tat);
    }
    const after = [cell(Math.max(tat.minute, now), quota.perMinute, this.minuteMs, now), cell(Math.max(tat.day, now), quota.perDay, this.dayMs, now)] as const;
    const binding = refusing ? after[refusing === minute ? 0 : 1] : after[1].remaining < after[0].remaining ? after[1] : after[0];
    const decision: RateDecision = { admitted: !refusing, banned: false, limit: binding.limit, remaining: binding.remaining, reset: Math.ceil(binding.tat / 1000) };
    if (refusing) decision.retryAfter = Math.max(1, Math.ceil((refusing.tat + refusing.emissionMs - refusing.windowMs - now) / 1000));
    return decision;
  }
}

/** One window's state at `now`: whether one more request fits, and how many more do. */
function cell(tat: number, limit: number, windowMs: number, now: number): { tat: number; limit: number; windowMs: number; emissionMs: number; fits: boolean; remaining: number } {
  const emissionMs = windowMs / limit;
  const room = windowMs - (tat - now);
  // A hair of slack: sums of emission intervals carry floating-point error.
  return { tat, limit, windowMs, emissionMs, fits: room >= emissionMs - EPSILON_MS, remaining: Math.max(0, Math.floor((room + EPSILON_MS) / emissionMs)) };
}
