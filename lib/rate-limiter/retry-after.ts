/**
 * The one reader of Retry-After (RFC 9110 section 10.2.3): delta-seconds, or an HTTP-date. The suite, the load
 * harness, the judge and the client rules all read it here, each handing over what it has of the answer.
 *
 * What a reading cannot tell apart from zero (its slack) depends on which clocks its two ends are read on:
 * - delta-seconds: a span from the answer, on whatever clock the answer's time is read; only the timestamps'
 *   own coarseness.
 * - an HTTP-date with the answer's Date header: both on the target's clock, whole seconds each, so the wait is
 *   their difference, give or take a second of rounding.
 * - an HTTP-date alone: the date is the target's clock and the answer's time the reader's, so how far the two
 *   clocks may be apart enters as well.
 * A reader whose answer times are not on the clock the target writes its Date with (the suite's target clock, where
 * the HTTP stack writes Date in real time) does not hand the Date header over.
 */
import { parseHttpDate, wholeNumber } from '../rate-limit-headers.ts';

/** Timestamps of two exchanges on one clock: a proxy's, a gateway's or a client's, to a few milliseconds. */
export const MEASURE_SLACK_MS = 100;
/** An HTTP-date and a Date header are whole seconds, each rounded its own way. */
const WHOLE_SECOND_MS = 1_000;

export interface RetryAfter {
  /** What Retry-After asked, in ms from the answer; never negative (a date already past asks for nothing). */
  waitMs: number;
  /** How much of `waitMs` the clocks it was read on cannot tell apart from zero. */
  slackMs: number;
  /** The header as written, for messages: "2", "Thu, 26 Nov 2026 19:00:03 GMT". */
  text: string;
}

export interface AnswerClock {
  /** When the answer came, on the reader's clock (ms since the epoch). */
  answeredAt: number;
  /** The answer's Date header, when the reader's answer times are on the clock it was written with. */
  date?: string | undefined;
  /** How far the reader's clock may be from the target's: enters only an HTTP-date read without Date. */
  clockSkewMs?: number;
}

/** Retry-After read, or undefined when absent or neither delta-seconds nor an HTTP-date. */
export function readRetryAfter(value: string | undefined, { answeredAt, date, clockSkewMs = 0 }: AnswerClock): RetryAfter | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const seconds = wholeNumber(text);
  if (seconds !== undefined) return { waitMs: seconds * 1000, slackMs: MEASURE_SLACK_MS, text };
  const until = parseHttpDate(text);
  if (until === undefined) return undefined;
  const dated = date === undefined ? undefined : parseHttpDate(date);
  if (dated !== undefined) return { waitMs: Math.max(0, until - dated), slackMs: MEASURE_SLACK_MS + WHOLE_SECOND_MS, text };
  return { waitMs: Math.max(0, until - answeredAt), slackMs: MEASURE_SLACK_MS + WHOLE_SECOND_MS + clockSkewMs, text };
}

/** How long Retry-After asks to wait from `answeredAt`, in ms (readRetryAfter without the Date header). */
export function retryAfterMs(value: string | undefined, answeredAt: number = Date.now()): number | undefined {
  return readRetryAfter(value, { answeredAt })?.waitMs;
}
