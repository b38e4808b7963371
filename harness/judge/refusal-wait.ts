/**
 * How long a 429 asked its client to wait, on the capture's clock, and how much of that the capture's
 * timestamps cannot tell apart from zero. A request sent within the slack of the wait's end is never called
 * early.
 *
 * - delta-seconds: both ends of the wait (the 429's answer, the next request) are read on the capture's
 *   clock, so how far that clock is from the target's does not enter; only the timestamps' own coarseness.
 * - an HTTP-date with the answer's Date header: both are the target's clock, whole seconds each, so the wait
 *   is their difference, give or take a second of rounding.
 * - an HTTP-date alone: the date is the target's clock and the answer's time the capture's, so the clock
 *   skew the judge was given enters as well.
 */
import { parseHttpDate, wholeNumber } from '../../lib/rate-limit-headers.ts';

/** Timestamps of two exchanges on one capture's clock: a proxy's or a gateway's, to a few milliseconds. */
export const MEASURE_SLACK_MS = 100;
/** An HTTP-date and a Date header are whole seconds, each rounded its own way. */
const WHOLE_SECOND_MS = 1_000;

export interface RefusalWait {
  /** What Retry-After asked, in ms from the 429's answer. */
  waitMs: number;
  slackMs: number;
  /** The header as written, for messages: "2", "Thu, 26 Nov 2026 19:00:03 GMT". */
  text: string;
}

export function refusalWait(retryAfter: string | undefined, date: string | undefined, answeredAt: number, clockSkewMs: number): RefusalWait | undefined {
  if (retryAfter === undefined) return undefined;
  const seconds = wholeNumber(retryAfter.trim());
  if (seconds !== undefined) return { waitMs: seconds * 1000, slackMs: MEASURE_SLACK_MS, text: retryAfter.trim() };
  const until = parseHttpDate(retryAfter.trim());
  if (until === undefined) return undefined;
  const sentDate = date === undefined ? undefined : parseHttpDate(date.trim());
  if (sentDate !== undefined) return { waitMs: Math.max(0, until - sentDate), slackMs: MEASURE_SLACK_MS + WHOLE_SECOND_MS, text: retryAfter.trim() };
  return { waitMs: Math.max(0, until - answeredAt), slackMs: MEASURE_SLACK_MS + WHOLE_SECOND_MS + clockSkewMs, text: retryAfter.trim() };
}
