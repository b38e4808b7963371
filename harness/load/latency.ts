/**
 * Latency as an HdrHistogram: every request recorded (no sampling), in microseconds, from the request's
 * intended send time, so a stalled target or a saturated client shows up in the tail instead of hiding
 * (no coordinated omission).
 */
import { build, type Histogram } from 'hdr-histogram-js';

export interface LatencySummary {
  count: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

export class LatencyRecorder {
  private readonly histogram: Histogram = build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });

  recordMs(ms: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  /** `times` answers of a bucket of whole microseconds cut to two significant digits (Locust's master), at its middle. */
  recordBucket(lowMicros: number, times: number): void {
    const width = lowMicros < 100 ? 1 : 10 ** (String(lowMicros).length - 2);
    this.histogram.recordValueWithCount(Math.max(1, Math.round(lowMicros + width / 2)), times);
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  summary(): LatencySummary {
    const h = this.histogram;
    const ms = (micros: number): number => Math.round(micros) / 1000;
    if (h.totalCount === 0) return { count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0 };
    return {
      count: h.totalCount,
      p50: ms(h.getValueAtPercentile(50)),
      p90: ms(h.getValueAtPercentile(90)),
      p99: ms(h.getValueAtPercentile(99)),
      p999: ms(h.getValueAtPercentile(99.9)),
      max: ms(h.maxValue),
      mean: ms(h.mean),
    };
  }
}
