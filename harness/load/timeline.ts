/** A key's requests over time, in buckets small enough to show each window and few enough to draw. */
import type { Observation } from './observation.ts';
import type { WindowClass } from './windows.ts';

export interface Timeline {
  bucketMs: number;
  /** Requests per second in each bucket, by the time they were sent. */
  admitted: number[];
  refused: number[];
  errors: number[];
  /** [seconds into the run, X-RateLimit-Remaining, the window class it describes] of admitted answers. */
  remaining: Array<[number, number, WindowClass]>;
}

const BUCKET_CHOICES_MS = [100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 300_000, 900_000, 3_600_000];
const MAX_BUCKETS = 240;
const MAX_REMAINING_POINTS = 2_000;

export function bucketFor(durationMs: number): number {
  return BUCKET_CHOICES_MS.find((ms) => durationMs / ms <= MAX_BUCKETS) ?? (BUCKET_CHOICES_MS.at(-1) as number);
}

/** Answers known only as a count sent between two times (ms since the run started): a generator's sums. */
export interface SentBetween {
  outcome: 'admitted' | 'refused' | 'error';
  count: number;
  from: number;
  to: number;
}

/** `summed` answers are drawn spread evenly over the time they were sent in: the chart's, never a verdict's. */
export function timelineOf(observations: readonly Observation[], durationMs: number, classOfLimit: (limit: number) => WindowClass, summed: readonly SentBetween[] = []): Timeline {
  const bucketMs = bucketFor(durationMs);
  const count = Math.max(1, Math.ceil(durationMs / bucketMs));
  const perSecond = 1000 / bucketMs;
  const admitted = new Array<number>(count).fill(0);
  const refused = new Array<number>(count).fill(0);
  const errors = new Array<number>(count).fill(0);
  const remaining: Timeline['remaining'] = [];
  for (const observation of observations) {
    const bucket = Math.min(count - 1, Math.max(0, Math.floor(observation.sentAt / bucketMs)));
    const series = observation.outcome === 'admitted' ? admitted : observation.outcome === 'refused' ? refused : errors;
    series[bucket] = (series[bucket] ?? 0) + perSecond;
    if (observation.outcome === 'admitted' && observation.remaining !== undefined && observation.limit !== undefined) {
      remaining.push([round(observation.doneAt / 1000), observation.remaining, classOfLimit(observation.limit)]);
    }
  }
  for (const { outcome, count: times, from, to } of summed) {
    const series = outcome === 'admitted' ? admitted : outcome === 'refused' ? refused : errors;
    for (let i = 0; i < times; i++) {
      const sentAt = times === 1 ? from : from + ((to - from) * i) / (times - 1);
      const bucket = Math.min(count - 1, Math.max(0, Math.floor(sentAt / bucketMs)));
      series[bucket] = (series[bucket] ?? 0) + perSecond;
    }
  }
  return { bucketMs, admitted: admitted.map(round), refused: refused.map(round), errors: errors.map(round), remaining: thin(remaining, bucketMs / 1000) };
}

/** Keeps the highest and lowest Remaining of each bucket when there are too many points to draw. */
function thin(points: Timeline['remaining'], bucketSeconds: number): Timeline['remaining'] {
  if (points.length <= MAX_REMAINING_POINTS) return points;
  const kept: Timeline['remaining'] = [];
  let bucket = -1;
  let high: Timeline['remaining'][number] | undefined;
  let low: Timeline['remaining'][number] | undefined;
  const flush = (): void => {
    if (high && low) kept.push(...(high[0] <= low[0] ? [high, low] : [low, high]));
  };
  for (const point of points) {
    const index = Math.floor(point[0] / bucketSeconds);
    if (index !== bucket) {
      flush();
      bucket = index;
      high = point;
      low = point;
    } else {
      if (point[1] > (high?.[1] ?? -Infinity)) high = point;
      if (point[1] < (low?.[1] ?? Infinity)) low = point;
    }
  }
  flush();
  return kept;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
