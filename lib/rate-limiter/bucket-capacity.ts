/**
 * How many requests a bucket admitted from full before its first refusal: its capacity (the minute Limit) plus
 * what it gave back meanwhile. A bucket of N tokens admits N at once and then N a window, so in some window it
 * admits up to 2N, as a fixed window does across its boundary: the plan quota is checked as this capacity
 * (see docs/explanation/limiter-kinds.md).
 */
import { isAdmitted, type Reading } from './reading.ts';
import { refillAllowance } from './refill.ts';

export interface CapacityMeasure {
  /** Admitted from the first answer that found the bucket full, that answer included, before the first refusal after it. */
  admitted: number;
  /** The most tokens the bucket could have given back meanwhile. */
  givenBack: number;
  from: Reading;
  refusal: Reading;
}

/** Readings of one key in the order they were sent; undefined when no full bucket was followed to a refusal. */
export function bucketCapacity(readings: readonly Reading[], limit: number, windowMs: number): CapacityMeasure | undefined {
  const start = readings.findIndex((reading) => isAdmitted(reading) && reading.limit === limit && reading.remaining === limit - 1);
  if (start === -1) return undefined;
  const rest = readings.slice(start);
  const refusalAt = rest.findIndex((reading) => !isAdmitted(reading));
  if (refusalAt === -1) return undefined;
  const from = rest[0]!;
  const refusal = rest[refusalAt]!;
  return { admitted: refusalAt, givenBack: refillAllowance(limit, windowMs, refusal.receivedAt - from.sentAt), from, refusal };
}
