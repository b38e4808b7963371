/**
 * One keyed answer as its key's windows take it (key-windows.ts Answer): what its three X-RateLimit-* headers said,
 * when it left and came back, and its reading (lib/rate-limiter/reading.ts) for the model of a limiter.
 *
 * An answer whose request's time the capture holds is its own reading: the reading's fields are the answer's (its
 * status, Limit, Remaining, Reset, sent and received times), so no second object is made for it. Every keyed answer
 * waits out the reorder buffer (window-accountant.ts), long enough to reach the old generation: one object a keyed
 * answer instead of two (with the accountant skipping idle close scans, 2-3% of the judging thread's CPU on the
 * bench HAR). Only an answer without its request's time has a reading apart, whose sentAt is when the answer came
 * back (the reading takes it to have left then).
 */
import type { Outcome } from '../../lib/rate-limiter/admitted.ts';
import type { Answer } from './key-windows.ts';

type KeyedReading = Answer['reading'];

export function keyedAnswer(
  id: number,
  outcome: Exclude<Outcome, 'error'>,
  status: number,
  { limit, remaining, reset }: { limit: number; remaining: number; reset: number },
  sentAt: number | undefined,
  receivedAt: number,
  retryAfterMs: number | undefined,
): Answer {
  if (sentAt === undefined) {
    return { id, outcome, limit, remaining, reset, sentAt, receivedAt, retryAfterMs, reading: { status, limit, remaining, reset, sentAt: receivedAt, receivedAt } };
  }
  const timed: KeyedReading & Omit<Answer, 'reading'> & { reading: KeyedReading | undefined } = { id, outcome, status, limit, remaining, reset, sentAt, receivedAt, retryAfterMs, reading: undefined };
  timed.reading = timed;
  return timed as Answer;
}
