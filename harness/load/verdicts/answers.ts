/** A key's answers as the model of a rate limiter reads them, and the pairs of them the limiter decided one after the other. */
import type { KeyResult } from '../runner.ts';
import { SUMS_INPUT } from '../summed.ts';
import type { KeyAccount, QuotaWindow } from '../windows.ts';
import { lostAnswer, readingOf } from '../../../lib/rate-limiter/account.ts';
import { decidedAfter } from '../../../lib/rate-limiter/order.ts';
import { isAdmitted, MINUTE_WINDOW_MS, type Reading } from '../../../lib/rate-limiter/reading.ts';
import type { JudgeContext } from './verdict.ts';

/** The answers of the run as the model reads them (lib/rate-limiter), each with when it was sent relative to the run. */
export interface Answer {
  reading: Reading;
  sentAt: number;
  doneAt: number;
  /** Its answer was lost, or it was sent again in place of one whose answer was (lostAnswer): the target may have admitted one more. */
  lost: boolean;
}

export function answersOf(result: KeyResult, context: JudgeContext): Answer[] {
  return result.observations.map((o) => ({ reading: readingOf(o, context.startedAtEpochMs), sentAt: o.sentAt, doneAt: o.doneAt, lost: lostAnswer(o) })).sort((a, b) => a.sentAt - b.sentAt);
}

/** The window a minute Limit comes back over, as learned from the run (the documented minute when nothing was learned). */
export function minuteWindowMs(account: KeyAccount): number {
  return account.refillWindowMs ?? account.minuteLength.estimateMs ?? MINUTE_WINDOW_MS;
}

/**
 * The shortest window the minute Limit may come back over: where the most that can come back is judged, a window
 * learned from the run no longer than a bucket's the Resets allow, so no rounding of them is held against the target.
 */
export function shortestRefillWindowMs(account: KeyAccount): number {
  const shortest = account.shortestBucketWindowMs;
  // Resets that set no floor leave the bucket's refill unbounded: the window learned from the run is then the best there is.
  return Math.min(minuteWindowMs(account), shortest !== undefined && shortest > 0 ? shortest : Infinity);
}

/**
 * Why a window's input shows no order to tell the kind of limiter by (model unseen): a generator's sums, or answers
 * always in flight together.
 */
export function unorderedInput(window: QuotaWindow): string {
  return window.fromSums ? SUMS_INPUT : 'no two admitted answers were decided one after the other, with nothing else in flight';
}

/**
 * Admitted answers of one Limit, one right after the other with nothing else of the key in flight from the first's
 * sending to the second's answer (no refusal, no error the limiter may have counted): the limiter decided them in
 * that order and nothing between, so what the second says follows from the first.
 */
export function sequentialPairs(answers: readonly Answer[]): Array<[Answer, Answer]> {
  const pairs: Array<[Answer, Answer]> = [];
  let doneBefore = -Infinity;
  for (let index = 0; index + 1 < answers.length; index++) {
    const [previous, next, after] = [answers[index]!, answers[index + 1]!, answers[index + 2]];
    // One client, one clock: decided one after the other (order.ts) with no skew, and nothing else of the key in flight.
    const alone = doneBefore <= previous.sentAt && decidedAfter({ receivedAt: previous.doneAt }, next, 0) === 'after' && (after === undefined || decidedAfter({ receivedAt: next.doneAt }, after, 0) !== 'unknown');
    doneBefore = Math.max(doneBefore, previous.doneAt);
    if (alone && judgeable(previous.reading) && judgeable(next.reading) && next.reading.limit === previous.reading.limit) pairs.push([previous, next]);
  }
  return pairs;
}

function judgeable(reading: Reading): boolean {
  return reading.status !== 0 && isAdmitted(reading) && reading.limit !== undefined && reading.remaining !== undefined && reading.reset !== undefined;
}
