/**
 * A burst on a limiter that gives tokens back (a token bucket, GCRA) while the day's Limit takes over the headers:
 * a Remaining that repeats or rises there is a token come back, or another window's count, not an RL-6
 * violation. Driven on the variant limiters of test/support request by request; a Remaining that repeats with
 * nothing to explain it still fails.
 */
import { expect, test } from '@playwright/test';
import { analyseBurst, type BurstInput } from '../../../../lib/rate-limiter/burst.ts';
import { MINUTE_WINDOW_MS, type Reading } from '../../../../lib/rate-limiter/reading.ts';
import { remainingStepProblem, stepBetween, stepsFromFresh } from '../../../../lib/rate-limiter/steps.ts';
import { describesMinuteWindow, windowOfLimit } from '../../../../lib/rate-limiter/window-of-limit.ts';
import type { Quota } from '../../../../lib/plans.ts';
import type { RateLimiter } from '../../../../reference-server/limiter.ts';
import { GcraLimiter } from '../../../support/gcra-limiter.ts';
import { TokenBucketLimiter } from '../../../support/token-bucket-limiter.ts';

const FREE: Quota = { perMinute: 60, perDay: 1000 };
const PRO: Quota = { perMinute: 300, perDay: 10000 };
/** 0.3 s past a whole second. */
const T0 = 1_800_000_040_300;

/** One key's requests to `limiter`, each decided 3 ms after it was sent and answered 3 ms later. */
function client(limiter: RateLimiter, quota: Quota): (at: number) => Reading {
  return (at) => {
    const decision = limiter.take('key', quota, at);
    return { status: decision.admitted ? 200 : 429, limit: decision.limit, remaining: decision.remaining, reset: decision.reset, sentAt: at - 3, receivedAt: at + 3 };
  };
}

/** Requests `gapMs` apart from `from` until one names the day's Limit: the time after it. */
function spendUntilTheDayBinds(take: (at: number) => Reading, quota: Quota, gapMs: number, from = T0): number {
  let at = from;
  while (take(at).limit !== quota.perDay) at += gapMs;
  return at + gapMs;
}

/** The probe at `at`, the rest of the minute's quota decided evenly over `spanMs`, and one request after them. */
function burstOf(take: (at: number) => Reading, quota: Quota, at: number, spanMs: number): Omit<BurstInput, 'headersTrusted'> {
  const probe = take(at);
  const burst = Array.from({ length: quota.perMinute - 1 }, (_, index) => take(at + 5 + (index * spanMs) / (quota.perMinute - 1)));
  return { probe, burst, extra: take(at + spanMs + 20) };
}

const limits = (readings: readonly Reading[]): number[] => [...new Set(readings.map((reading) => reading.limit!))];
const repeats = (readings: readonly Reading[]): number => readings.length - new Set(readings.map((reading) => `${reading.limit}:${reading.remaining}`)).size;

for (const [name, make] of [['GCRA', () => new GcraLimiter()], ['a token bucket', () => new TokenBucketLimiter()]] as const) {
  test(`${name}: a Pro key whose day binds the headers, a day token coming back mid-burst (Remaining repeats), is measured with no RL-6 or RL-7 problem`, () => {
    const take = client(make(), PRO);
    // The day's count just below the minute's: it names itself from the probe on, and lasts the burst.
    const measured = burstOf(take, PRO, spendUntilTheDayBinds(take, PRO, 200), 30_000);
    expect(limits([measured.probe, ...measured.burst])).toEqual([PRO.perDay]);
    expect(measured.burst.every((reading) => reading.status === 200)).toBe(true);
    expect(repeats(measured.burst), 'a day token came back between two requests').toBeGreaterThan(0);
    const result = analyseBurst({ ...measured, headersTrusted: false });
    expect(result).toMatchObject({ kind: 'measured', admitted: 300, refusedInBurst: 0, remainingProblem: undefined, resetProblem: undefined });
    // The request after the burst came 30 s on: the minute gave back many tokens, so admitting it is no evidence.
    expect(result.kind === 'measured' && !result.extraRefused && result.givenBack > 0).toBe(true);
  });

  test(`${name}: a Free key whose headers switch from the minute's Limit (60) to the day's (1000) mid-burst as minute tokens come back is measured with no problem`, () => {
    const take = client(make(), FREE);
    // Three day tokens back after the day first bound: the day holds a minute's quota or one more, the minute is full.
    const probeAt = spendUntilTheDayBinds(take, FREE, 1_000) + 3 * 86_400 + 60_000;
    const measured = burstOf(take, FREE, probeAt, 5_000);
    expect(measured.probe.limit).toBe(FREE.perMinute);
    expect(limits(measured.burst)).toEqual([FREE.perMinute, FREE.perDay]);
    expect(measured.burst.every((reading) => reading.status === 200)).toBe(true);
    expect(analyseBurst({ ...measured, headersTrusted: true })).toMatchObject({ kind: 'measured', admitted: 60, refusedInBurst: 0, remainingProblem: undefined, resetProblem: undefined });
  });
}

/** Readings shaped by hand: `limit`, `remaining` and `reset` (Unix seconds) at `at` ms. */
const shaped = (at: number, limit: number, remaining: number, reset: number, status = 200): Reading => ({ status, limit, remaining, reset, sentAt: at - 3, receivedAt: at + 3 });
/** A bucket of `limit` over `windowMs` with `remaining` left at `at`: full again when the missing tokens come back. */
const bucket = (at: number, limit: number, remaining: number, windowMs: number): Reading => shaped(at, limit, remaining, Math.ceil((at + ((limit - remaining) * windowMs) / limit) / 1000));

test('the reverse: the day named at the probe, the minute bucket named once its count is the closer to running out, one minute token coming back', () => {
  // A server that names the window nearest to running out by share: the day at half, the minute once below half.
  const day = (index: number): Reading => bucket(T0 + 10 * index, 1000, 499 - index, 86_400_000);
  const minuteValues = [29, 28, 27, 27, 26, 25];
  const minute = minuteValues.map((remaining, index) => bucket(T0 + 300 + 10 * index + (index >= 3 ? 1_000 : 0), 60, remaining, 60_000));
  const burst = [...Array.from({ length: 29 }, (_, index) => day(index + 1)), ...minute];
  const result = analyseBurst({ probe: day(0), burst, extra: shaped(T0 + 1_400, 60, 0, Math.ceil((T0 + 61_400) / 1000), 429), headersTrusted: false });
  expect(result).toMatchObject({ kind: 'measured', remainingProblem: undefined, resetProblem: undefined });
});

test.describe('a Remaining that repeats with nothing to explain it still fails RL-6', () => {
  test('in the day window, named throughout, whose Reset stays put (a fixed day gives nothing back)', () => {
    const reset = Math.ceil((T0 + 5 * 3_600_000) / 1000);
    const values = [297, 296, 296, 295];
    const result = analyseBurst({ probe: shaped(T0, 10000, 298, reset), burst: values.map((remaining, index) => shaped(T0 + 10 + index, 10000, remaining, reset)), extra: shaped(T0 + 100, 10000, 294, reset), headersTrusted: false });
    expect(result).toMatchObject({ kind: 'measured', remainingProblem: expect.stringContaining('296 came twice') });
  });

  test("in the day's window after the headers switched to it, its Reset staying put", () => {
    const take = client(new GcraLimiter(), FREE);
    const measured = burstOf(take, FREE, spendUntilTheDayBinds(take, FREE, 1_000) + 3 * 86_400 + 60_000, 5_000);
    const reset = Math.ceil((T0 + 5 * 3_600_000) / 1000);
    const fixedDay = measured.burst.map((reading) => (reading.limit === FREE.perDay ? { ...reading, reset } : reading));
    const firstDay = fixedDay.findIndex((reading) => reading.limit === FREE.perDay);
    fixedDay[firstDay + 1] = { ...fixedDay[firstDay + 1]!, remaining: fixedDay[firstDay]!.remaining };
    const result = analyseBurst({ ...measured, burst: fixedDay, headersTrusted: true });
    expect(result).toMatchObject({ kind: 'measured', remainingProblem: expect.stringContaining('under X-RateLimit-Limit 1000') });
  });

  test('in a day bucket, more often than its tokens can come back while the burst lasts', () => {
    const take = client(new GcraLimiter(), PRO);
    const measured = burstOf(take, PRO, spendUntilTheDayBinds(take, PRO, 200), 30_000);
    // 30 s give back at most 4 of a day's 10,000 tokens: ten answers saying the same count are more.
    const stuck = measured.burst.map((reading, index) => (index < 10 ? { ...reading, remaining: measured.probe.remaining! - 1 } : reading));
    const result = analyseBurst({ ...measured, burst: stuck, headersTrusted: false });
    expect(result).toMatchObject({ kind: 'measured', remainingProblem: expect.stringContaining(`${measured.probe.remaining! - 1} came 10 times`) });
  });
});

test('one at a time, a step to another Limit is no step within a window; within one Limit a repeat still fails', () => {
  const minute = bucket(T0, 60, 57, 60_000);
  const day = bucket(T0 + 100, 1000, 57, 86_400_000);
  expect(stepBetween(minute, day, 60_000)).toBe('limit-changed');
  expect(remainingStepProblem(minute, day, 60_000, true)).toBeUndefined();
  expect(remainingStepProblem(minute, { ...minute, sentAt: T0 + 97, receivedAt: T0 + 103 }, 60_000, false)).toContain('to fall from 57 to 56');
});

test.describe("one at a time under a day bucket's Limit (RL-7's steps, headers not the minute's)", () => {
  const dayOf = (limit: number): number | undefined => windowOfLimit(limit, FREE);
  /** Ten requests sent back to back, 40 ms apart, once the day's count is below the minute's. */
  const oneByOne = (take: (at: number) => Reading): Reading[] => {
    const from = spendUntilTheDayBinds(take, FREE, 1_000);
    return Array.from({ length: 10 }, (_, index) => take(from + 40 * index));
  };

  for (const [name, make] of [['GCRA', () => new GcraLimiter()], ['a token bucket', () => new TokenBucketLimiter()]] as const) {
    test(`${name}: a Free key's day bucket naming itself moves Reset on with every request, and that is a bucket refilling, not a Reset moved`, () => {
      const readings = oneByOne(client(make(), FREE));
      expect(limits(readings)).toEqual([FREE.perDay]);
      expect(readings.every((reading, index) => index === 0 || reading.remaining === readings[index - 1]!.remaining! - 1)).toBe(true);
      expect(new Set(readings.map((reading) => reading.reset)).size, 'Reset moved on with every request').toBe(readings.length);
      expect(describesMinuteWindow(readings[0]!, FREE)).toBe(false);
      const steps = stepsFromFresh(readings, false, MINUTE_WINDOW_MS, dayOf);
      expect(steps).toEqual(Array.from({ length: 9 }, () => 'refilling'));
      steps.forEach((_, index) => expect(remainingStepProblem(readings[index]!, readings[index + 1]!, MINUTE_WINDOW_MS, true)).toBeUndefined());
    });
  }

  test('a day bucket whose Reset moves back, by more than a day token is worth, still moved', () => {
    const readings = oneByOne(client(new GcraLimiter(), FREE));
    const wobbling = readings.map((reading, index) => (index % 3 === 2 ? { ...reading, reset: reading.reset! - 100 } : reading));
    expect(stepsFromFresh(wobbling, false, MINUTE_WINDOW_MS, dayOf)).toContain('reset-moved');
  });

  test("a Reset of now + 60 s moved: on the minute's fixed window (trusted headers) and under the day's Limit", () => {
    const nowPlusMinute = (limit: number) => (at: number, index: number): Reading => shaped(at, limit, 57 - index, Math.ceil((at + 60_000) / 1000));
    const minute = Array.from({ length: 10 }, (_, index) => nowPlusMinute(60)(T0 + 1_000 * index, index));
    expect(describesMinuteWindow(minute[0]!, FREE)).toBe(true);
    // A second of drift is within Reset's resolution (one end rounded apart); two are not: every other step moved.
    expect(stepsFromFresh(minute, true, MINUTE_WINDOW_MS, dayOf).filter((step) => step === 'reset-moved').length).toBeGreaterThanOrEqual(4);
    const day = Array.from({ length: 10 }, (_, index) => nowPlusMinute(1000)(T0 + 1_000 * index, index));
    expect(stepsFromFresh(day, false, MINUTE_WINDOW_MS, dayOf).filter((step) => step === 'reset-moved').length).toBeGreaterThanOrEqual(4);
  });
});

test("one at a time from the minute's headers to a day bucket's: the day's steps are judged by the day, and a Reset moving back there still moved", () => {
  const minute = bucket(T0, 60, 3, 60_000);
  const day = Array.from({ length: 4 }, (_, index) => bucket(T0 + 40 * (index + 1), 1000, 2 - index + 40, 86_400_000));
  const dayOf = (limit: number): number | undefined => windowOfLimit(limit, FREE);
  expect(describesMinuteWindow(minute, FREE)).toBe(true);
  expect(stepsFromFresh([minute, ...day], true, MINUTE_WINDOW_MS, dayOf)).toEqual(['limit-changed', 'refilling', 'refilling', 'refilling']);
  const back = [minute, day[0]!, day[1]!, { ...day[2]!, reset: day[1]!.reset! - 2 }];
  expect(stepsFromFresh(back, true, MINUTE_WINDOW_MS, dayOf)).toEqual(['limit-changed', 'refilling', 'reset-moved']);
});
