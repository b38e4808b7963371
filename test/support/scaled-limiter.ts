/**
 * What the variant limiters share: the documented minute and day, `timeScale` times shorter (1 when the server's
 * clock runs fast instead, as the limiter then reads that clock).
 */
import type { Quota } from '../../lib/plans.ts';
import { DAY_MS, MINUTE_MS, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';

export abstract class ScaledLimiter implements RateLimiter {
  protected readonly minuteMs: number;
  protected readonly dayMs: number;

  constructor(timeScale = 1) {
    this.minuteMs = MINUTE_MS / timeScale;
    this.dayMs = DAY_MS / timeScale;
  }

  abstract take(subject: string, quota: Quota, now: number): RateDecision;
}
