/**
 * Window and day accounting from the target's headers, on a virtual clock: the real client logic against
 * the reference limiter, a legitimate sliding-window variant and limiters broken one rule at a time.
 */
import { expect, test } from '@playwright/test';
import { FixedWindowLimiter, type RateLimiter } from '../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../support/clock-window-limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { MinuteAndDayLimiters } from '../support/minute-and-day-limiters.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { DayIgnoringLimiter, EarlyRefusingLimiter, MovingResetLimiter, NoRetryAfterLimiter, OverAdmittingLimiter, UnsharedCountersLimiter } from './support/limiters.ts';
import { judge } from './support/judge.ts';
import { simulate } from './support/simulate.ts';

test.describe('fixed windows (the reference limiter)', () => {
  test('a compliant client just over the limit sees exactly 60 per Free window, the first 429 at 61 and a retry admitted', () => {
    const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 60 }), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 8_000 });
    const judged = judge(result);
    const minute = judged.account.windows.filter((w) => w.windowClass === 'minute');
    expect(minute.length).toBeGreaterThanOrEqual(3);
    for (const window of minute.slice(0, -1)) {
      expect(window.admitted).toBe(60);
      expect(window.refused).toBe(1);
      expect(window.admittedBeforeFirstRefusal).toBe(60);
    }
    expect(judged.failed).toEqual([]);
    for (const check of ['minute-max', 'first-refusal', 'retry-after-admitted', 'remaining-steps', 'reset-stable'] as const) {
      expect(judged.verdict(check).status, check).toBe('pass');
    }
    expect(judged.verdict('ban').status).toBe('observed');
    expect(judged.account.bans).toEqual([]);
  });

  test('rollover: a naive client at 1.1x gets 60 per window, window after window, and the day cut off at exactly 1,000', () => {
    const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 60 }), plan: 'free', behaviour: 'naive', perSecond: 66, durationMs: 19_000, stepMs: 2 });
    const judged = judge(result);
    const minute = judged.account.windows.filter((w) => w.windowClass === 'minute');
    expect(minute.slice(0, 16).map((w) => w.admitted)).toEqual(new Array(16).fill(60));
    expect(result.admitted).toBe(1_000);
    expect(judged.verdict('daily-quota').status).toBe('pass');
    expect(judged.verdict('daily-quota').detail).toContain('exactly 1,000');
    expect(judged.failed).toEqual([]);
  });

  test('the window length is learned from the headers, at any time scale', () => {
    for (const [scale, minuteMs] of [[60, 1_000], [20, 3_000], [1, 60_000]] as const) {
      const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: scale }), plan: 'free', behaviour: 'naive', perSecond: (66 * scale) / 60, durationMs: 3.5 * minuteMs, stepMs: scale === 1 ? 10 : 1 });
      const { atLeastMs, atMostMs } = judge(result).account.minuteLength;
      expect(atLeastMs, `scale ${scale}`).toBeLessThanOrEqual(minuteMs);
      expect(atLeastMs, `scale ${scale}`).toBeGreaterThan(minuteMs * 0.85);
      expect(atMostMs, `scale ${scale}`).toBeGreaterThanOrEqual(minuteMs);
      expect(atMostMs, `scale ${scale}`).toBeLessThan(minuteMs + 1_000);
    }
  });

  test('a naive client hammering after 429 is banned, and the ban is reported as observed (ERR-GAP-3), not failed', () => {
    const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 60 }), plan: 'free', behaviour: 'naive', perSecond: 120, durationMs: 14_000, stepMs: 2 });
    const judged = judge(result);
    const ban = judged.verdict('ban');
    expect(ban.status).toBe('observed');
    expect(ban.rules).toEqual(['ERR-GAP-3']);
    expect(judged.account.bans[0]?.refusalsBefore).toBe(9);
    expect(judged.account.bans[0]?.announcedMs).toBe(10_000);
    expect(judged.failed).toEqual([]);
  });

  test('windows shorter than the whole-second Reset are inconclusive, never an over-admission', () => {
    const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 1440 }), plan: 'free', behaviour: 'naive', perSecond: 900, durationMs: 2_500 });
    const judged = judge(result);
    expect(judged.verdict('minute-max').status).toBe('inconclusive');
    expect(judged.failed).not.toContain('minute-max');
  });
});

test.describe('a legitimate sliding window', () => {
  for (const behaviour of ['compliant', 'naive'] as const) {
    test(`passes with a ${behaviour} client`, () => {
      const result = simulate({ limiter: new SlidingWindowLimiter(60), plan: 'free', behaviour, perSecond: 80, durationMs: 6_000 });
      const judged = judge(result);
      expect(judged.failed).toEqual([]);
      expect(judged.verdict('minute-max').status).toBe('pass');
    });
  }
});

test.describe('a client that stalls and catches up with a burst (a busy machine)', () => {
  for (const [name, limiter] of [['sliding', () => new SlidingWindowLimiter(60)], ['fixed', () => new FixedWindowLimiter({ timeScale: 60 })]] as const) {
    test(`is no reason to fail a ${name} window`, () => {
      for (const behaviour of ['compliant', 'naive'] as const) {
        const result = simulate({ limiter: limiter(), plan: 'free', behaviour, perSecond: 90, durationMs: 5_000, stallAtMs: 300, stallMs: 600 });
        expect(judge(result).failed, behaviour).toEqual([]);
      }
    });
  }

  test('does not hide limit+1', () => {
    const result = simulate({ limiter: new OverAdmittingLimiter(60), plan: 'free', behaviour: 'naive', perSecond: 90, durationMs: 5_000, stallAtMs: 300, stallMs: 600 });
    expect(judge(result).failed).toContain('minute-max');
  });
});

test.describe('broken limiters are flagged', () => {
  test('limit+1 admitted in a window fails PLAN-FREE (no more than 60) and the first-refusal check', () => {
    const judged = judge(simulate({ limiter: new OverAdmittingLimiter(60), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 5_000 }));
    expect(judged.verdict('minute-max').status).toBe('fail');
    expect(judged.verdict('minute-max').rules).toContain('PLAN-FREE');
    expect(judged.verdict('minute-max').evidence[0]).toContain('61 admitted');
    expect(judged.verdict('first-refusal').status).toBe('fail');
  });

  test('refusing before the quota is spent fails the "no fewer" check', () => {
    const judged = judge(simulate({ limiter: new EarlyRefusingLimiter(60), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 5_000 }));
    expect(judged.verdict('first-refusal').status).toBe('fail');
    expect(judged.verdict('first-refusal').evidence[0]).toContain('first 429 at request 56');
    expect(judged.verdict('minute-max').status).toBe('pass');
  });

  test('requests in flight together may reach the target in another order than they were sent: a 429 sent before the last admissions of its window is no early refusal', () => {
    const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 60 }), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 3_000 });
    const firstRefusal = result.observations.findIndex((o) => o.outcome === 'refused');
    const [refusal, lastAdmitted] = [result.observations[firstRefusal]!, result.observations.slice(0, firstRefusal).slice(-3)];
    // The refused request left first; the last three admitted ones left just after it and overtook it on the way.
    const inFlightFrom = lastAdmitted[0]!.sentAt;
    refusal.sentAt = inFlightFrom;
    lastAdmitted.forEach((o, index) => {
      o.sentAt = inFlightFrom + index + 1;
      o.doneAt = refusal.doneAt;
    });
    const judged = judge(result);
    expect(judged.account.windows[0]!.admittedBeforeFirstRefusal).toBe(57);
    expect(judged.verdict('first-refusal').status).toBe('pass');
  });

  test('a daily quota that is never enforced fails PLAN-FREE once more than 1,000 are admitted within a day', () => {
    const judged = judge(simulate({ limiter: new DayIgnoringLimiter(60), plan: 'free', behaviour: 'naive', perSecond: 66, durationMs: 19_000, stepMs: 2 }));
    const daily = judged.verdict('daily-quota');
    expect(daily.status).toBe('fail');
    expect(daily.evidence[0]).toMatch(/1,\d{3} admitted with no daily refusal/);
  });

  test('a Reset that moves within a window fails RL-7, and leaves where a refusal came in its window unjudged rather than failed', () => {
    const judged = judge(simulate({ limiter: new MovingResetLimiter(60), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 3_000 }));
    expect(judged.verdict('reset-stable').status).toBe('fail');
    expect(judged.verdict('reset-stable').rules).toEqual(['RL-7']);
    expect(judged.verdict('first-refusal').status).toBe('not-checked');
    expect(judged.verdict('first-refusal').detail).toContain('RL-7');
  });

  test('two nodes counting a key apart, at 15-s windows: RL-7 fails, and no count under one Reset passes a plan\'s quota', () => {
    // At 1.5 times Free's quota nothing is refused: the key's first window admits about 90, but each node's Reset
    // holds at most 60 of them. The load must not call that window's most "60": its Reset cannot tell it.
    const judged = judge(simulate({ limiter: new UnsharedCountersLimiter(4, 4_000), plan: 'free', behaviour: 'compliant', perSecond: 6, durationMs: 25_000, stepMs: 5 }));
    expect(judged.verdict('reset-stable').status).toBe('fail');
    expect(judged.verdict('minute-max').status).toBe('not-checked');
    expect(judged.verdict('minute-max').detail).toContain('RL-7');
  });

  test('429 without Retry-After fails RL-1 alone, and the compliant client still backs off', () => {
    const result = simulate({ limiter: new NoRetryAfterLimiter(60), plan: 'free', behaviour: 'compliant', perSecond: 66, durationMs: 4_000 });
    const judged = judge(result);
    expect(judged.verdict('retry-after-present').status).toBe('fail');
    expect(judged.verdict('retry-after-present').rules).toContain('RL-1');
    expect(result.heldBack).toBeGreaterThan(0);
    // Its retries came after the client's own backoff, refused again within the window: RL-3 is about the time a
    // Retry-After gave, and these 429s gave none (as @fastify/rate-limit with retry-after turned off).
    expect(judged.verdict('retry-after-admitted').status).toBe('not-checked');
    expect(judged.verdict('retry-after-admitted').detail).toContain('gave no Retry-After');
    expect(judged.failed).toEqual(['retry-after-present']);
  });
});

test.describe('every kind of legitimate limiter passes', () => {
  const kinds = [
    ['a token bucket', () => new TokenBucketLimiter(60)],
    ['GCRA', () => new GcraLimiter(60)],
    ['a sliding counter', () => new SlidingCounterLimiter(60)],
    ['fixed windows on the clock', () => new ClockWindowLimiter(60)],
    ['a sliding log', () => new SlidingWindowLimiter(60)],
  ] as const;
  for (const [name, limiter] of kinds) {
    for (const behaviour of ['compliant', 'naive'] as const) {
      test(`${name}, with a ${behaviour} client over the limit`, () => {
        for (const perSecond of [80, 240]) {
          const judged = judge(simulate({ limiter: limiter(), plan: 'free', behaviour, perSecond, durationMs: 6_000 }));
          expect(judged.failed, `${perSecond}/s: ${JSON.stringify(judged.failed.map((check) => judged.verdict(check)), null, 1)}`).toEqual([]);
          expect(judged.verdict('limiter-kind')).toMatchObject({ status: 'observed', rules: ['RL-GAP-2'] });
        }
      });
    }
  }

  for (const behaviour of ['compliant', 'naive'] as const) {
    test(`a minute and a day limiter stacked (admitted answers name the day), with a ${behaviour} client over the minute limit`, () => {
      const judged = judge(simulate({ limiter: new MinuteAndDayLimiters(), plan: 'free', behaviour, perSecond: 1.5, durationMs: 150_000, stepMs: 5 }));
      expect(judged.failed, JSON.stringify(judged.failed.map((check) => judged.verdict(check)), null, 1)).toEqual([]);
      expect(judged.account.limiter.stacked).toBe(true);
    });
  }

  test('the kind is reported with the answers that showed it: a bucket moving Reset as tokens are spent, fixed windows refilled whole', () => {
    const bucket = judge(simulate({ limiter: new TokenBucketLimiter(20), plan: 'free', behaviour: 'compliant', perSecond: 30, durationMs: 8_000 })).verdict('limiter-kind');
    expect(bucket.detail).toContain('a token bucket or GCRA');
    expect(bucket.evidence[0]).toContain('Reset moved forward as tokens were spent');
    const fixed = judge(simulate({ limiter: new FixedWindowLimiter({ timeScale: 20 }), plan: 'free', behaviour: 'compliant', perSecond: 30, durationMs: 8_000 })).verdict('limiter-kind');
    expect(fixed.detail).toContain('fixed windows opened by the first request');
  });
});

test('a bucket that holds more tokens than the minute quota fails PLAN-FREE, its count shown', () => {
  const inner = new TokenBucketLimiter(60);
  const overfull: RateLimiter = {
    take(subject, quota, now) {
      const decision = inner.take(subject, { ...quota, perMinute: quota.perMinute + 10 }, now);
      return decision.limit === quota.perMinute + 10 ? { ...decision, limit: quota.perMinute, remaining: Math.max(0, decision.remaining - 10) } : decision;
    },
  };
  const judged = judge(simulate({ limiter: overfull, plan: 'free', behaviour: 'compliant', perSecond: 240, durationMs: 3_000 }));
  expect(judged.verdict('minute-max').status).toBe('fail');
  expect(judged.verdict('minute-max').evidence[0]).toMatch(/expected at most \d+, got \d+/);
});
