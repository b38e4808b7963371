/**
 * Two fixed-window limiters in a row, a minute's and then a day's, each writing the X-RateLimit-* headers: the
 * way express-rate-limit runs several windows (one middleware per window, and the one that runs last writes the
 * headers). An admitted response so carries the day's window (Limit 1,000 for Free, Reset hours away), and a
 * refusal the window that refused, with its own Retry-After (a minute's 429: Limit 60, Retry-After a few seconds).
 * RL-5 allows either quota as "the limit that applies", so this is a legitimate variant of the reference server's
 * limiter. As in express-rate-limit, each window opens at its subject's first request after the last one ended and
 * counts every request that reaches it: a minute's refusal never reaches the day's limiter.
 */
import type { Quota } from '../../lib/plans.ts';
import { DAY_MS, MINUTE_MS, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';

interface Window {
  end: number;
  hits: number;
}

export class MinuteAndDayLimiters implements RateLimiter {
  private readonly minutes = new Map<string, Window>();
  private readonly days = new Map<string, Window>();

  /** `timeScale` N makes both windows N times shorter in real time (a minute of one second at 60), headers in real seconds. */
  constructor(private readonly timeScale = 1) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    const minute = hit(this.minutes, subject, MINUTE_MS / this.timeScale, now);
    if (minute.hits > quota.perMinute) return refused(quota.perMinute, minute, now);
    const day = hit(this.days, subject, DAY_MS / this.timeScale, now);
    if (day.hits > quota.perDay) return refused(quota.perDay, day, now);
    return { admitted: true, banned: false, limit: quota.perDay, remaining: quota.perDay - day.hits, reset: Math.ceil(day.end / 1000) };
  }
}

function hit(windows: Map<string, Window>, subject: string, lengthMs: number, now: number): Window {
  let window = windows.get(subject);
  if (!window || window.end <= now) {
    window = { end: now + lengthMs, hits: 0 };
    windows.set(subject, window);
  }
  window.hits++;
  return window;
}

function refused(limit: number, window: Window, now: number): RateDecision {
  return { admitted: false, banned: false, limit, remaining: 0, reset: Math.ceil(window.end / 1000), retryAfter: Math.max(1, Math.ceil((window.end - now) / 1000)) };
}
