/**
 * Rate limiting (spec: Limits / Rate limits by plan). The spec leaves the windows open; the reference server
 * uses two fixed windows per subject at once, a minute and a day, each opened by the subject's first request
 * and replaced by a new one at the first request after it ends. Every admitted request counts in both;
 * refused requests count in neither. The windows are `timeScale` times shorter in real time, but every
 * figure handed out (Reset, Retry-After) is in real Unix seconds and real seconds.
 *
 * Node runs one request handler at a time and `take` never awaits, so a check and its count cannot be split
 * by another request: 200 concurrent requests on a fresh Free key admit exactly 60.
 */
import type { Quota } from '../lib/plans.ts';

export interface RateDecision {
  admitted: boolean;
  /** True when the subject is refused because it is banned, not merely over its quota. */
  banned: boolean;
  /** X-RateLimit-Limit, -Remaining and -Reset of the binding window (Reset in Unix seconds). */
  limit: number;
  remaining: number;
  reset: number;
  /** Whole seconds to wait before retrying; set when refused, at least 1. */
  retryAfter?: number;
}

/** What the request pipeline needs from a limiter, so a test can swap in another legitimate one (a sliding window). */
export interface RateLimiter {
  /** Decides one request of `subject` at `now` (ms since the epoch) and, if admitted, counts it. */
  take(subject: string, quota: Quota, now: number): RateDecision;
}

export interface FixedWindowOptions {
  timeScale?: number;
  /** Refusals within one minute window after which the subject is banned. */
  banAfterRefusals?: number;
  /** Length of a ban in (scaled) minutes. */
  banMinutes?: number;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const BAN_AFTER_REFUSALS = 10;
export const BAN_MINUTES = 10;

interface Window {
  end: number;
  count: number;
}

interface SubjectState {
  minute: Window;
  day: Window;
  refusals: number;
  bannedUntil: number;
}

/** Subjects kept before ended ones are swept, so client addresses cannot grow the map without bound. */
const SWEEP_THRESHOLD = 10_000;

export class FixedWindowLimiter implements RateLimiter {
  private readonly minuteMs: number;
  private readonly dayMs: number;
  private readonly banMs: number;
  private readonly banAfter: number;
  private readonly subjects = new Map<string, SubjectState>();
  private sweepAt = SWEEP_THRESHOLD;

  constructor(options: FixedWindowOptions = {}) {
    const scale = options.timeScale ?? 1;
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`timeScale must be a positive number, got ${scale}`);
    this.minuteMs = MINUTE_MS / scale;
    this.dayMs = DAY_MS / scale;
    this.banMs = ((options.banMinutes ?? BAN_MINUTES) * MINUTE_MS) / scale;
    this.banAfter = options.banAfterRefusals ?? BAN_AFTER_REFUSALS;
  }

  /** How many keys and addresses the limiter holds windows for. */
  get trackedSubjects(): number {
    return this.subjects.size;
  }

  take(subject: string, quota: Quota, now: number): RateDecision {
    const state = this.stateOf(subject, now);
    if (state.bannedUntil > now) return this.refusal(state, quota, now, true);
    if (state.minute.count >= quota.perMinute || state.day.count >= quota.perDay) {
      state.refusals++;
      if (state.refusals >= this.banAfter) {
        state.bannedUntil = now + this.banMs;
        state.refusals = 0;
        return this.refusal(state, quota, now, true);
      }
      return this.refusal(state, quota, now, false);
    }
    state.minute.count++;
    state.day.count++;
    const binding = this.binding(state, quota);
    return { admitted: true, banned: false, limit: binding.limit, remaining: binding.remaining, reset: unixSeconds(binding.window.end) };
  }

  private stateOf(subject: string, now: number): SubjectState {
    let state = this.subjects.get(subject);
    if (!state) {
      if (this.subjects.size >= this.sweepAt) this.sweep(now);
      state = { minute: { end: now + this.minuteMs, count: 0 }, day: { end: now + this.dayMs, count: 0 }, refusals: 0, bannedUntil: 0 };
      this.subjects.set(subject, state);
      return state;
    }
    if (now >= state.minute.end) {
      state.minute = { end: now + this.minuteMs, count: 0 };
      state.refusals = 0;
    }
    if (now >= state.day.end) state.day = { end: now + this.dayMs, count: 0 };
    return state;
  }

  /**
   * The window whose figures the headers show: the one with fewer requests left, the minute one on a tie,
   * except when both are spent: then the day window binds, as its end is when the subject may send again.
   */
  private binding(state: SubjectState, quota: Quota): { window: Window; limit: number; remaining: number } {
    const minuteLeft = Math.max(0, quota.perMinute - state.minute.count);
    const dayLeft = Math.max(0, quota.perDay - state.day.count);
    if (dayLeft < minuteLeft || (dayLeft === 0 && minuteLeft === 0)) return { window: state.day, limit: quota.perDay, remaining: dayLeft };
    return { window: state.minute, limit: quota.perMinute, remaining: minuteLeft };
  }

  private refusal(state: SubjectState, quota: Quota, now: number, banned: boolean): RateDecision {
    const binding = this.binding(state, quota);
    const until = banned ? state.bannedUntil : binding.window.end;
    return {
      admitted: false,
      banned,
      limit: binding.limit,
      remaining: 0,
      reset: unixSeconds(until),
      retryAfter: Math.max(1, Math.ceil((until - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const [subject, state] of this.subjects) {
      if (state.day.end <= now && state.bannedUntil <= now) this.subjects.delete(subject);
    }
    this.sweepAt = Math.max(SWEEP_THRESHOLD, this.subjects.size * 2);
  }
}

function unixSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
