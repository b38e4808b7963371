/**
 * A long stream of each legitimate limiter's answers, kept as the judge keeps it (a bounded sample of the pairs
 * decided one after the other), tells the same kind as every answer of the stream does.
 */
import { expect, test } from '@playwright/test';
import { PairSample } from '../../../../lib/rate-limiter/pair-sample.ts';
import { MINUTE_WINDOW_MS, type Reading } from '../../../../lib/rate-limiter/reading.ts';
import { kindOfPairs, recogniseLimiter } from '../../../../lib/rate-limiter/recognise.ts';
import { windowOfLimit } from '../../../../lib/rate-limiter/window-of-limit.ts';
import { FixedWindowLimiter, type RateLimiter } from '../../../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../../../support/clock-window-limiter.ts';
import { GcraLimiter } from '../../../support/gcra-limiter.ts';
import { SlidingCounterLimiter } from '../../../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../../../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../../../support/token-bucket-limiter.ts';

const FREE = { perMinute: 60, perDay: 100_000 };
const T0 = 1_800_000_040_300;
const START = Math.ceil(T0 / MINUTE_WINDOW_MS) * MINUTE_WINDOW_MS;

function drive(limiter: RateLimiter, times: readonly number[]): Reading[] {
  return times.map((at) => {
    const decision = limiter.take('key', FREE, at + 2);
    return { status: decision.admitted ? 200 : 429, limit: decision.limit, remaining: decision.remaining, reset: decision.reset, sentAt: at, receivedAt: at + 5 };
  });
}

const every = (count: number, gapMs: number, from = T0): number[] => Array.from({ length: count }, (_, index) => from + index * gapMs);

function sampled(readings: readonly Reading[]): PairSample {
  const sample = new PairSample(MINUTE_WINDOW_MS);
  const admitted = readings.filter((reading) => reading.status !== 429 && reading.limit === FREE.perMinute);
  admitted.forEach((reading, index) => {
    sample.addReading(reading);
    if (index > 0) sample.addPair(admitted[index - 1]!, reading);
  });
  return sample;
}

const STREAMS: Array<[string, () => RateLimiter, number[]]> = [
  ['a token bucket', () => new TokenBucketLimiter(), every(2_000, 400)],
  ['GCRA', () => new GcraLimiter(), every(2_000, 400)],
  ['fixed windows opened by the first request', () => new FixedWindowLimiter(), every(2_000, 900)],
  ['fixed windows on the clock', () => new ClockWindowLimiter(), every(2_000, 900)],
  ['a sliding log', () => new SlidingWindowLimiter(), [...every(40, 100), ...every(2_000, 1_000, T0 + 30_000)]],
  ['a sliding counter', () => new SlidingCounterLimiter(), [...every(60, 100, START), ...every(2_000, 3_000, START + MINUTE_WINDOW_MS + 1_000)]],
];

for (const [name, limiter, times] of STREAMS) {
  test(`${name}: the sample stays small and tells the kind every answer tells`, () => {
    const readings = drive(limiter(), times);
    const sample = sampled(readings);
    expect(sample.pairs.length).toBeLessThanOrEqual(36 * 4);
    const windowMs = sample.bucketWindowMs ?? MINUTE_WINDOW_MS;
    const whole = recogniseLimiter(readings, { windowOf: (limit) => windowOfLimit(limit, FREE), minuteLimit: FREE.perMinute });
    expect(whole.kind).not.toBe('unknown');
    expect(kindOfPairs(sample.pairs, windowMs).kind).toBe(whole.kind);
  });
}

test("a bucket's window is learned from its Resets over the whole stream; a fixed window's fits no bucket", () => {
  const bucket = sampled(drive(new TokenBucketLimiter(), every(2_000, 400))).bucketWindowMs;
  expect(bucket).toBeGreaterThan(MINUTE_WINDOW_MS * 0.9);
  expect(bucket).toBeLessThanOrEqual(MINUTE_WINDOW_MS);
  expect(sampled(drive(new FixedWindowLimiter(), every(2_000, 900))).bucketWindowMs).toBeUndefined();
});
