/**
 * Which of two answers the target decided first, as far as the times a client or a capture holds can tell. The
 * target decided each between its request leaving and its answer coming back. The second was decided after the
 * first for certain only when it left after the first came back by more than the clocks that timed them may
 * differ (`clockSkewMs`: two gateways' logs merged, a capture's clock against the target's). Within that, the two
 * were decided in that order on one clock, but two clocks may swap them. An answer whose request time is unknown (an
 * exchange without its duration) may have left at any time before it came back: nothing is decided after it in any
 * order a check can rely on.
 */
export type Order = 'after' | 'maybe-after' | 'unknown';

export function decidedAfter(previous: { receivedAt: number }, next: { sentAt: number | undefined }, clockSkewMs: number): Order {
  if (next.sentAt === undefined || next.sentAt < previous.receivedAt) return 'unknown';
  return next.sentAt >= previous.receivedAt + clockSkewMs ? 'after' : 'maybe-after';
}
