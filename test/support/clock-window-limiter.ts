/**
 * Fixed windows aligned to the clock, as nginx's limit_req zones keyed by minute and most Redis INCR-and-EXPIREAT
 * limiters run them: every subject's minute window is the clock's minute (its day the UTC day), whoever sent first.
 * A legitimate variant of the reference server's windows opened by first use (RL-GAP-2): Reset is the end of the
 * clock minute, so the first window a key meets may have any part of a minute left.
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision } from '../../reference-server/limiter.ts';
import { ScaledLimiter } from './scaled-limiter.ts';

export class ClockWindowLimiter extends ScaledLimiter {
  private readonly counts = new Map<string, { minute: number; minuteEnd: number; day: number; dayEnd: number }>();
  take(subject: string, quota: Quota, now: number): RateDecision {
    const minuteEnd = (Math.floor(now / this.minuteMs) + 1) * this.minuteMs;
    const dayEnd = (Math.floor(now / this.dayMs) + 1) * this.dayMs;
    const state = this.counts.get(subject) ?? { minute: 0, minuteEnd, day: 0, dayEnd };
    if (state.minuteEnd !== minuteEnd) Object.assign(state, { minute: 0, minuteEnd });
    if (state.dayEnd !== dayEnd) Object.assign(state, { day: 0, dayEnd });
    this.counts.set(subject, state);
    const admitted = state.minute < quota.perMinute && state.day < quota.perDay;
    if (admitted) {
      state.minute++;
      state.day++;
    }
    const minuteLeft = quota.perMinute - state.minute;
    const dayLeft = quota.perDay - state.day;
    const dayBinds = dayLeft < minuteLeft || dayLeft === 0;
    const [limit, remaining, end] = dayBinds ? [quota.perDay, dayLeft, state.dayEnd] : [quota.perMinute, minuteLeft, state.minuteEnd];
    const decision: RateDecision = { admitted, banned: false, limit, remaining, reset: Math.ceil(end / 1000) };
    if (!admitted) decision.retryAfter = Math.max(1, Math.ceil((end - now) / 1000));
    return decision;
  }
}
