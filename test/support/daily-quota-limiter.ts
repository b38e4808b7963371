/**
 * A day's quota counted beside the limiter that runs the minute, as API gateways' usage plans count it (a rate,
 * and a quota per day): every request reaches the minute's limiter first, and one it admits is then counted in a
 * fixed day opened by the subject's first request. When the day is used up, the refusal carries the minute
 * limiter's headers (Limit 60, Remaining what the minute has left, Reset its end, seconds away) and a Retry-After
 * to the day's end. RL-5 lets the headers name either window, so this is a legitimate variant of the reference
 * server's limiter, with a fixed minute window or a token bucket for the minute. As in express-rate-limit, a
 * window counts every request that reaches it: a request the day refuses has used a place in the minute.
 */
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision, RateLimiter } from '../../reference-server/limiter.ts';
import { ScaledLimiter } from './scaled-limiter.ts';

interface Day {
  end: number;
  admitted: number;
}

export class DailyQuotaLimiter extends ScaledLimiter {
  private readonly days = new Map<string, Day>();

  /** `minute` runs the minute quota alone (it is given no day); `timeScale` as the minute limiter's. */
  constructor(private readonly minute: RateLimiter, timeScale = 1) {
    super(timeScale);
  }

  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.minute.take(subject, { perMinute: quota.perMinute, perDay: Number.MAX_SAFE_INTEGER }, now);
    if (!decision.admitted) return decision;
    let day = this.days.get(subject);
    if (!day || day.end <= now) {
      day = { end: now + this.dayMs, admitted: 0 };
      this.days.set(subject, day);
    }
    if (day.admitted >= quota.perDay) return { ...decision, admitted: false, retryAfter: Math.max(1, Math.ceil((day.end - now) / 1000)) };
    day.admitted++;
    return decision;
  }
}
