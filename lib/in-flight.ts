/**
 * How many requests were in flight together, from each one's interval between being sent and being answered (on
 * one clock, either side of the wire). Two requests were together when each was sent before the other was
 * answered; one sent at the very instant (to the clock's resolution) another was answered was not with it.
 */
export interface InFlightInterval {
  sentAt: number;
  receivedAt: number;
}

/**
 * The largest set of requests all sent before the first of them was answered: the most in flight at one instant.
 * Each request is tried as the set's first answered; the set is it and every other sent before its answer and
 * answered no sooner (and after it was sent).
 */
export function peakInFlight(intervals: readonly InFlightInterval[]): number {
  let peak = 0;
  for (const first of intervals) {
    const together = intervals.filter((other) => other === first || (other.sentAt < first.receivedAt && other.receivedAt >= first.receivedAt && first.sentAt < other.receivedAt));
    peak = Math.max(peak, together.length);
  }
  return peak;
}
