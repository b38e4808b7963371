/**
 * The rate-limiter model on made-up sequences and on the variant limiters of test/support driven request by
 * request: each kind is recognised and passes, and a header that contradicts itself is caught.
 */
import { expect, test } from '@playwright/test';
import { analyseBurst } from '../../../../lib/rate-limiter/burst.ts';
import { bucketCapacity } from '../../../../lib/rate-limiter/bucket-capacity.ts';
import { mayHaveEnded, MINUTE_WINDOW_MS, type Reading } from '../../../../lib/rate-limiter/reading.ts';
import { recogniseLimiter, type RecogniseOptions } from '../../../../lib/rate-limiter/recognise.ts';
import { fullAtReset } from '../../../../lib/rate-limiter/refill.ts';
import { AnchoredSteps, remainingStepProblem, resetMovedText, resetStepProblem, stepBetween } from '../../../../lib/rate-limiter/steps.ts';
import { windowOfLimit } from '../../../../lib/rate-limiter/window-of-limit.ts';
import type { RateLimiter } from '../../../../reference-server/limiter.ts';
import { FixedWindowLimiter } from '../../../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../../../support/clock-window-limiter.ts';
import { GcraLimiter } from '../../../support/gcra-limiter.ts';
import { MinuteAndDayLimiters } from '../../../support/minute-and-day-limiters.ts';
import { SlidingCounterLimiter } from '../../../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../../../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../../../support/token-bucket-limiter.ts';

const FREE = { perMinute: 60, perDay: 1000 };
const OPTIONS: RecogniseOptions = { windowOf: (limit) => windowOfLimit(limit, FREE), minuteLimit: 60, dayLimit: 1000 };
/** 0.3 s past a whole minute: a window opened now is not aligned to the clock. */
const T0 = 1_800_000_040_300;

/** Readings of requests sent one at a time to `limiter`, `gapMs` apart, each answered 5 ms later. */
function drive(limiter: RateLimiter, times: readonly number[]): Reading[] {
  return times.map((at) => {
    const decision = limiter.take('key', FREE, at + 2);
    return { status: decision.admitted ? 200 : 429, limit: decision.limit, remaining: decision.remaining, reset: decision.reset, sentAt: at, receivedAt: at + 5 };
  });
}

const every = (count: number, gapMs: number, from = T0): number[] => Array.from({ length: count }, (_, index) => from + index * gapMs);

/** Every step between consecutive admitted readings, judged: what the model finds wrong. */
function problems(readings: readonly Reading[], refills: boolean): string[] {
  const admitted = readings.filter((reading) => reading.status !== 429);
  const steps = new AnchoredSteps();
  return admitted.slice(1).flatMap((next, index) => {
    const previous = admitted[index]!;
    const step = steps.step(previous, next, MINUTE_WINDOW_MS);
    const sameWindow = step !== 'new-window' && !mayHaveEnded(previous.reset!, next.receivedAt);
    const remaining = sameWindow ? remainingStepProblem(previous, next, MINUTE_WINDOW_MS, refills) : undefined;
    return [remaining, step === 'reset-moved' ? resetMovedText(previous, next) : undefined].filter((problem): problem is string => problem !== undefined);
  });
}

test.describe('each legitimate kind is recognised, and its headers hold by what they mean', () => {
  test('a token bucket: Reset moves forward as tokens are spent, to when the bucket is full again', () => {
    // 70 requests 0.4 s apart: faster than the 1 s a token takes to come back, so the bucket drains, refusing at the end.
    const readings = drive(new TokenBucketLimiter(), every(110, 400));
    expect(readings.filter((reading) => reading.status === 429).length).toBeGreaterThan(0);
    expect(readings.filter((reading) => reading.status !== 429).every((reading) => fullAtReset(reading, MINUTE_WINDOW_MS))).toBe(true);
    const recognised = recogniseLimiter(readings, OPTIONS);
    expect(recognised.kind).toBe('bucket');
    expect(recognised.evidence[0]).toContain('Reset moved forward as tokens were spent');
    expect(problems(readings, true)).toEqual([]);
    const capacity = bucketCapacity(readings, 60, MINUTE_WINDOW_MS)!;
    expect(capacity.admitted).toBeGreaterThanOrEqual(60);
    expect(capacity.admitted).toBeLessThanOrEqual(60 + capacity.givenBack);
  });

  test('GCRA is a bucket seen from outside', () => {
    const readings = drive(new GcraLimiter(), every(110, 400));
    expect(recogniseLimiter(readings, OPTIONS).kind).toBe('bucket');
    expect(problems(readings, true)).toEqual([]);
  });

  test('fixed windows opened by the first request: the whole quota back at Reset', () => {
    const readings = drive(new FixedWindowLimiter(), every(140, 900));
    const recognised = recogniseLimiter(readings, OPTIONS);
    expect(recognised.kind).toBe('fixed-first-use');
    expect(problems(readings, false)).toEqual([]);
  });

  test('fixed windows on the clock: every Reset on a whole minute', () => {
    const readings = drive(new ClockWindowLimiter(), every(140, 900));
    expect(recogniseLimiter(readings, OPTIONS)).toMatchObject({ kind: 'fixed-clock', evidence: [expect.any(String), expect.stringContaining('whole window of the clock')] });
    expect(problems(readings, false)).toEqual([]);
  });

  test('a sliding log: only what left the window comes back at Reset', () => {
    const readings = drive(new SlidingWindowLimiter(), [...every(40, 100), ...every(60, 1_000, T0 + 30_000)]);
    expect(recogniseLimiter(readings, OPTIONS).kind).toBe('sliding-log');
    expect(problems(readings, false)).toEqual([]);
  });

  test('a sliding counter: Remaining rises before Reset as the last window weighs less, no faster than the quota refills', () => {
    const start = Math.ceil(T0 / MINUTE_WINDOW_MS) * MINUTE_WINDOW_MS;
    // A full minute window, then requests every 3 s in the next: each finds the last window 5% lighter.
    const readings = drive(new SlidingCounterLimiter(), [...every(60, 100, start), ...every(15, 3_000, start + MINUTE_WINDOW_MS + 1_000)]);
    expect(recogniseLimiter(readings, OPTIONS).kind).toBe('sliding-counter');
    expect(problems(readings, true)).toEqual([]);
  });

  test("a window filled at once, then one request after the 429's wait (the suite's RL-3 measurement): the kind is told across the burst's answers in flight together", () => {
    // A probe, the rest of the quota 24 at a time (each lane's answers overlapping the others'), the 429, and after it
    // a request sent alone once Reset has come: which of the burst was decided last is unknown, and need not be known.
    const limiter = new FixedWindowLimiter();
    const burst = Array.from({ length: 59 }, (_, index) => T0 + 10 + Math.floor(index / 24) * 6 + (index % 24) * 0.1);
    const decided = [T0, ...burst, T0 + 40, T0 + 61_000].map((at) => {
      const decision = limiter.take('key', FREE, at + 2);
      return { status: decision.admitted ? 200 : 429, limit: decision.limit, remaining: decision.remaining, reset: decision.reset, sentAt: at, receivedAt: at + (at === T0 || at > T0 + 40 ? 5 : 8) };
    });
    expect(decided.filter((reading) => reading.status === 429)).toHaveLength(1);
    expect(recogniseLimiter(decided, OPTIONS)).toMatchObject({ kind: 'fixed-first-use', evidence: [expect.stringContaining('Remaining 0 → 59'), expect.any(String)] });

    // Two answers of the burst that may each have been decided last tell different kinds (one Reset on a whole minute,
    // one not): the pair across them tells nothing.
    const onMinute = (Math.floor(T0 / MINUTE_WINDOW_MS) + 1) * (MINUTE_WINDOW_MS / 1000);
    const disagreeing = decided.map((reading, index) => (index === 59 ? { ...reading, reset: onMinute } : reading));
    expect(recogniseLimiter(disagreeing, OPTIONS).kind).toBe('unknown');
  });

  test('a sliding log answering slowly: a request sent before Reset and decided after it tells what came back, as its step does', () => {
    // A window's worth one at a time, all leaving together: the whole quota back after them. Then another, and one
    // request sent 0.45 s before the next Reset's second, decided 1.5 s later (a server queueing it): by then only the
    // first of that window had left, so only part came back. A fixed window gives back all or nothing.
    const limiter = new SlidingWindowLimiter();
    const slowAt = T0 + 120_250;
    const readings = [...every(60, 10), ...every(60, 30, T0 + 61_000), slowAt].map((at) => {
      const decidedAt = at === slowAt ? at + 1_500 : at + 2;
      const decision = limiter.take('key', FREE, decidedAt);
      return { status: decision.admitted ? 200 : 429, limit: decision.limit, remaining: decision.remaining, reset: decision.reset, sentAt: at, receivedAt: decidedAt + 5 };
    });
    const [before, slow] = readings.slice(-2) as [Reading, Reading];
    expect(slow.sentAt).toBeLessThan((before.reset! - 1) * 1000);
    expect(stepBetween(before, slow, MINUTE_WINDOW_MS)).toBe('new-window');
    expect(slow.remaining).toBeGreaterThan(0);
    expect(slow.remaining).toBeLessThan(59);
    expect(recogniseLimiter(readings, OPTIONS)).toMatchObject({ kind: 'sliding-log', evidence: [expect.stringContaining(`Remaining 0 → ${slow.remaining}`)] });
    // Without it, nothing but the whole quota coming back was seen: as a fixed window's.
    expect(recogniseLimiter(readings.slice(0, -1), OPTIONS).kind).toBe('fixed-first-use');
  });

  test('a minute and a day limiter stacked: both Limits seen, each naming its own window', () => {
    const readings = drive(new MinuteAndDayLimiters(), every(70, 10));
    expect(recogniseLimiter(readings, OPTIONS).stacked).toBe(true);
  });
});

test.describe('a header that contradicts itself is caught under every kind', () => {
  const reading = (fields: Partial<Reading> & { at: number }): Reading => ({ status: 200, limit: 60, remaining: 50, reset: Math.ceil((T0 + 30_000) / 1000), sentAt: fields.at - 2, receivedAt: fields.at, ...fields });

  test('a Reset that moves back within a window', () => {
    const first = reading({ at: T0 });
    const next = reading({ at: T0 + 10, remaining: 49, reset: first.reset! - 2 });
    expect(stepBetween(first, next, MINUTE_WINDOW_MS)).toBe('reset-moved');
    expect(resetStepProblem(first, next, MINUTE_WINDOW_MS)).toContain('it moved back');
  });

  test('a Reset a minute from every request, which is not when a bucket with that much left is full', () => {
    const first = reading({ at: T0, remaining: 50, reset: Math.ceil((T0 + 60_000) / 1000) });
    const next = reading({ at: T0 + 2_500, remaining: 49, reset: Math.ceil((T0 + 62_500) / 1000) });
    expect(fullAtReset(next, MINUTE_WINDOW_MS)).toBe(false);
    expect(resetStepProblem(first, next, MINUTE_WINDOW_MS)).toContain('moved forward');
  });

  test('a Reset in milliseconds is never where a bucket is full', () => {
    expect(fullAtReset(reading({ at: T0, reset: T0 + 10_000 }), MINUTE_WINDOW_MS)).toBe(false);
  });

  test('a Remaining that does not fall within a fixed window, nor faster than a bucket refills', () => {
    const first = reading({ at: T0 });
    expect(remainingStepProblem(first, reading({ at: T0 + 10, remaining: 50 }), MINUTE_WINDOW_MS, false)).toContain('to fall from 50 to 49');
    // 10 ms can give back one token of a minute's 60, never three.
    expect(remainingStepProblem(first, reading({ at: T0 + 10, remaining: 49 + 1 }), MINUTE_WINDOW_MS, true)).toBeUndefined();
    expect(remainingStepProblem(first, reading({ at: T0 + 10, remaining: 52 }), MINUTE_WINDOW_MS, true)).toContain('or up to 50');
  });

  test('a bucket whose Remaining stays put: its Reset moves on as tokens are spent, which the Remaining left contradicts', () => {
    const inner = new TokenBucketLimiter();
    const stuck: RateLimiter = { take: (subject, quota, now) => ({ ...inner.take(subject, quota, now), remaining: 59 }) };
    const found = problems(drive(stuck, every(20, 100)), true);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toContain('is not when a bucket with 59 of 60 left would be full again');
  });

  test('a burst on a bucket, Reset moving on with each token spent, is measured without a problem', () => {
    const limiter = new TokenBucketLimiter();
    // The probe, then 59 requests decided 15 ms apart, then one more: 0.9 s, before the first token comes back.
    const [probe, ...rest] = drive(limiter, every(61, 15));
    const result = analyseBurst({ probe: probe!, burst: rest.slice(0, 59), extra: rest[59]! });
    expect(result).toMatchObject({ kind: 'measured', admitted: 60, refusedInBurst: 0, remainingProblem: undefined, resetProblem: undefined });
  });

  test('a burst on a bucket whose last request was admitted on a token that came back says how many could', () => {
    const limiter = new TokenBucketLimiter();
    const [probe, ...rest] = drive(limiter, [...every(60, 25), T0 + 2_600]);
    expect(rest.at(-1)!.status).toBe(200);
    expect(analyseBurst({ probe: probe!, burst: rest.slice(0, 59), extra: rest[59]! })).toMatchObject({ kind: 'measured', admitted: 60, extraRefused: false, givenBack: 3, remainingProblem: undefined });
  });

  test('a fixed window that admits the request after its quota gives nothing back to explain it', () => {
    const limiter = new FixedWindowLimiter();
    const over: RateLimiter = { take: (subject, quota, now) => limiter.take(subject, { ...quota, perMinute: quota.perMinute + 1 }, now) };
    const [probe, ...rest] = drive({ take: (subject, quota, now) => ({ ...over.take(subject, quota, now), limit: 60 }) }, every(61, 25));
    expect(analyseBurst({ probe: probe!, burst: rest.slice(0, 59), extra: rest[59]! })).toMatchObject({ kind: 'measured', extraRefused: false, givenBack: 0 });
  });
});
