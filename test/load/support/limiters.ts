/**
 * Deliberately broken limiters (and the wrapper that makes them), each breaking one documented quota rule
 * while keeping headers that look right, so the load verdicts are proven to catch the break itself.
 * Injected into createReferenceServer in end-to-end tests and driven by the simulator in unit tests.
 */
import type { Quota } from '../../../lib/plans.ts';
import { FixedWindowLimiter, MINUTE_MS, type RateDecision, type RateLimiter } from '../../../reference-server/limiter.ts';

/** The broken targets never ban, so that a burst of refusals cannot hide the rule each one breaks. */
const NO_BAN = Number.MAX_SAFE_INTEGER;

/** Admits one request more per minute window than the quota, while its headers still say the quota. */
export class OverAdmittingLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;
  constructor(timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN });
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.inner.take(subject, { ...quota, perMinute: quota.perMinute + 1 }, now);
    if (decision.limit !== quota.perMinute + 1) return decision;
    return { ...decision, limit: quota.perMinute, remaining: Math.max(0, decision.remaining - 1) };
  }
}

/** Refuses five requests before the minute quota is spent, with headers that claim five are left. */
export class EarlyRefusingLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;
  constructor(timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN });
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.inner.take(subject, { ...quota, perMinute: quota.perMinute - 5 }, now);
    if (decision.limit !== quota.perMinute - 5) return decision;
    return { ...decision, limit: quota.perMinute, remaining: decision.remaining + 5 };
  }
}

/** Enforces the minute quota but never the daily one. */
export class DayIgnoringLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;
  constructor(timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN });
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    return this.inner.take(subject, { ...quota, perDay: Number.MAX_SAFE_INTEGER }, now);
  }
}

/**
 * Counts fixed windows correctly but reports a Reset one minute from every request, two seconds later on every other
 * one, so it moves within a window by more than the second two nodes may round one end apart by.
 */
export class MovingResetLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;
  constructor(private readonly timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN });
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.inner.take(subject, quota, now);
    return { ...decision, reset: Math.ceil((now + MINUTE_MS / this.timeScale) / 1000) + 2 * (decision.remaining % 2) };
  }
}

/**
 * Two gateway nodes each counting a key in its own memory, behind a balancer: the first takes every request for
 * `aloneMs`, then the two take turns, so the second's windows open that much later. Each node's headers are true of
 * its own count; the key's window admits up to twice its quota.
 */
export class UnsharedCountersLimiter implements RateLimiter {
  private readonly nodes: [FixedWindowLimiter, FixedWindowLimiter];
  private started: number | undefined;
  private turn = 0;
  constructor(
    timeScale: number,
    private readonly aloneMs: number,
  ) {
    this.nodes = [new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN }), new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN })];
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    this.started ??= now;
    const [first, second] = this.nodes;
    return (now - this.started < this.aloneMs || this.turn++ % 2 === 0 ? first : second).take(subject, quota, now);
  }
}

/** Answers 429 without Retry-After: the rest is the reference limiter. */
export class NoRetryAfterLimiter implements RateLimiter {
  private readonly inner: FixedWindowLimiter;
  constructor(timeScale: number) {
    this.inner = new FixedWindowLimiter({ timeScale, banAfterRefusals: NO_BAN });
  }
  take(subject: string, quota: Quota, now: number): RateDecision {
    const { retryAfter: _dropped, ...decision } = this.inner.take(subject, quota, now);
    return decision;
  }
}
