import { expect, test } from '@playwright/test';
import { BAN_AFTER_REFUSALS, DAY_MS, FixedWindowLimiter, MINUTE_MS, type RateDecision } from '../../../reference-server/limiter.ts';

const FREE = { perMinute: 60, perDay: 1000 };
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0, 250);

function takeMany(limiter: FixedWindowLimiter, count: number, now: number, subject = 'key free', quota = FREE): RateDecision[] {
  return Array.from({ length: count }, () => limiter.take(subject, quota, now));
}

test.describe('FixedWindowLimiter', () => {
  test('admits the minute quota, then refuses with Retry-After until the window opened by the first request ends', () => {
    const limiter = new FixedWindowLimiter();
    const first = limiter.take('key free', FREE, T0);
    expect(first).toEqual({ admitted: true, banned: false, limit: 60, remaining: 59, reset: Math.ceil((T0 + MINUTE_MS) / 1000) });
    const rest = takeMany(limiter, 59, T0 + 10_000);
    expect(rest.map((d) => d.remaining)).toEqual(Array.from({ length: 59 }, (_, i) => 58 - i));
    expect(rest.every((d) => d.reset === first.reset)).toBe(true);

    const refused = limiter.take('key free', FREE, T0 + 20_000);
    expect(refused).toMatchObject({ admitted: false, banned: false, limit: 60, remaining: 0, reset: first.reset, retryAfter: 40 });
    expect(limiter.take('key free', FREE, T0 + MINUTE_MS - 1).retryAfter).toBe(1);
    expect(limiter.take('key free', FREE, T0 + MINUTE_MS)).toMatchObject({ admitted: true, remaining: 59 });
  });

  test('refused requests are not counted: the next window starts full', () => {
    const limiter = new FixedWindowLimiter();
    takeMany(limiter, 65, T0);
    const next = limiter.take('key free', FREE, T0 + MINUTE_MS);
    expect(next).toMatchObject({ admitted: true, remaining: 59 });
  });

  test('counts keys apart', () => {
    const limiter = new FixedWindowLimiter();
    takeMany(limiter, 60, T0, 'key a');
    expect(limiter.take('key a', FREE, T0).admitted).toBe(false);
    expect(limiter.take('key b', FREE, T0)).toMatchObject({ admitted: true, remaining: 59 });
  });

  test('applies the minute and the day window at once; the headers follow the one with fewer requests left', () => {
    const limiter = new FixedWindowLimiter({ banAfterRefusals: Infinity });
    let now = T0;
    let last: RateDecision | undefined;
    for (let minute = 0; minute < 16; minute++) {
      for (const decision of takeMany(limiter, 60, now)) if (decision.admitted) last = decision;
      now += MINUTE_MS;
    }
    // 16 minutes of 60 admit 960; the day quota of 1000 binds during the 17th minute.
    const decisions = takeMany(limiter, 60, now);
    const admitted = decisions.filter((d) => d.admitted);
    expect(admitted).toHaveLength(40);
    expect(last).toMatchObject({ limit: 60, remaining: 0 });
    // From 40 left in the day against 60 in a fresh minute, the day window binds and is shown.
    expect(admitted[0]).toMatchObject({ limit: 1000, remaining: 39, reset: Math.ceil((T0 + DAY_MS) / 1000) });
    const refused = decisions.at(-1);
    expect(refused).toMatchObject({ admitted: false, limit: 1000, remaining: 0 });
    expect(refused?.retryAfter).toBe(Math.ceil((T0 + DAY_MS - now) / 1000));
    // A new minute does not help; a new day does.
    expect(limiter.take('key free', FREE, now + MINUTE_MS).admitted).toBe(false);
    expect(limiter.take('key free', FREE, T0 + DAY_MS)).toMatchObject({ admitted: true, limit: 60, remaining: 59 });
  });

  test('on a tie the minute window is shown', () => {
    const limiter = new FixedWindowLimiter();
    expect(limiter.take('key', { perMinute: 5, perDay: 5 }, T0)).toMatchObject({ limit: 5, remaining: 4, reset: Math.ceil((T0 + MINUTE_MS) / 1000) });
  });

  test('a time scale makes every window shorter in real time, while the figures stay in real seconds', () => {
    const limiter = new FixedWindowLimiter({ timeScale: 60 });
    const first = limiter.take('key free', FREE, T0);
    expect(first.reset).toBe(Math.ceil((T0 + 1_000) / 1000));
    takeMany(limiter, 59, T0 + 100);
    const refused = limiter.take('key free', FREE, T0 + 500);
    expect(refused).toMatchObject({ admitted: false, retryAfter: 1 });
    expect(limiter.take('key free', FREE, T0 + 1_000)).toMatchObject({ admitted: true, remaining: 59 });
  });

  test('a fractional time scale lengthens windows', () => {
    const limiter = new FixedWindowLimiter({ timeScale: 0.5 });
    takeMany(limiter, 60, T0);
    expect(limiter.take('key free', FREE, T0).retryAfter).toBe(120);
  });

  test(`a key refused ${BAN_AFTER_REFUSALS} times within one window is banned for 10 scaled minutes, with a longer Retry-After`, () => {
    const limiter = new FixedWindowLimiter({ timeScale: 2 });
    takeMany(limiter, 60, T0);
    const refusals = takeMany(limiter, BAN_AFTER_REFUSALS, T0 + 1_000);
    expect(refusals.slice(0, -1).every((d) => !d.banned && d.retryAfter === 29)).toBe(true);
    const banMs = (10 * MINUTE_MS) / 2;
    expect(refusals.at(-1)).toMatchObject({ admitted: false, banned: true, remaining: 0, retryAfter: banMs / 1000, reset: Math.ceil((T0 + 1_000 + banMs) / 1000) });
    // Still banned after the minute window has ended...
    expect(limiter.take('key free', FREE, T0 + MINUTE_MS)).toMatchObject({ admitted: false, banned: true });
    // ...and admitted again once the ban is over.
    expect(limiter.take('key free', FREE, T0 + 1_000 + banMs)).toMatchObject({ admitted: true, banned: false });
  });

  test('refusals spread over several windows do not add up to a ban', () => {
    const limiter = new FixedWindowLimiter();
    let now = T0;
    for (let window = 0; window < 3; window++) {
      takeMany(limiter, 60, now);
      expect(takeMany(limiter, BAN_AFTER_REFUSALS - 1, now).some((d) => d.banned)).toBe(false);
      now += MINUTE_MS;
    }
  });

  test('exact under concurrency: 200 requests racing on a fresh Free key in one window admit exactly 60', async () => {
    const limiter = new FixedWindowLimiter();
    const now = (): number => T0 + 5_000;
    const decisions = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i % 7));
        return limiter.take('key fresh', FREE, now());
      }),
    );
    expect(decisions.filter((d) => d.admitted)).toHaveLength(60);
    expect(new Set(decisions.filter((d) => d.admitted).map((d) => d.remaining)).size).toBe(60);
  });

  test('forgets subjects whose windows have all ended once many have been seen', () => {
    const limiter = new FixedWindowLimiter();
    for (let i = 0; i < 10_000; i++) limiter.take(`address ${i}`, FREE, T0);
    expect(limiter.trackedSubjects).toBe(10_000);
    // A day later the old addresses are swept when a new one arrives, and a returning one starts afresh.
    expect(limiter.take('address new', FREE, T0 + DAY_MS)).toMatchObject({ admitted: true, remaining: 59 });
    expect(limiter.trackedSubjects).toBe(1);
    expect(limiter.take('address 1', FREE, T0 + DAY_MS)).toMatchObject({ admitted: true, remaining: 59 });
  });

  test('refuses a time scale that is not a positive number', () => {
    for (const timeScale of [0, -1, Number.NaN, Infinity]) expect(() => new FixedWindowLimiter({ timeScale })).toThrow(/timeScale must be a positive number/);
  });
});
