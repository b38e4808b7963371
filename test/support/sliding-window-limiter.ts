/**
 * A sliding-window limiter: a legitimate variant of the reference server's fixed windows (the spec leaves
 * window boundaries open, gap RL-GAP-2). Injected through `createReferenceServer(config, { limiter })`,
 * it lets tests prove that nothing downstream (suite, load script, replay) depends on fixed windows.
 * It remembers the time of every admitted request for a day, so it is meant for tests, not for load.
 */
import type { Quota } from '../../lib/plans.ts';
import { DAY_MS, MINUTE_MS, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';

export class SlidingWindowLimiter implements RateLimiter {
  private readonly admitted = new Map<string, number[]>();

  constructor(private readonly timeScale = 1) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    const minuteMs = MINUTE_MS / this.timeScale;
    const dayMs = DAY_MS / this.timeScale;
    const times = (this.admitted.get(subject) ?? []).filter((time) => time > now - dayMs);
    this.admitted.set(subject, times);
    const inMinute = times.filter((time) => time > now - minuteMs);
    const admit = inMinute.length < quota.perMinute && times.length < quota.perDay;
    if (admit) {
      times.push(now);
      inMinute.push(now);
    }
    const minuteLeft = quota.perMinute - inMinute.length;
    const dayLeft = quota.perDay - times.length;
    const [limit, remaining, window, windowMs] =
      dayLeft < minuteLeft ? [quota.perDay, dayLeft, times, dayMs] : [quota.perMinute, minuteLeft, inMinute, minuteMs];
    // The window frees its next slot when its oldest request slides out of it.
    const frees = (window[0] ?? now) + windowMs;
    const decision: RateDecision = { admitted: admit, banned: false, limit, remaining, reset: Math.ceil(frees / 1000) };
    if (!admit) decision.retryAfter = Math.max(1, Math.ceil((frees - now) / 1000));
    return decision;
  }
}
