/**
 * How long a refusal asks a client to wait, and when a wait is longer than a window: one reading for the suite, the
 * load harness and the judge. Retry-After is read by the one reader (retry-after.ts); without one, the window's
 * Reset where the headers describe the minute window; else what the caller takes a window to be.
 */
import type { Quota } from '../plans.ts';
import { retryAfterMs } from './retry-after.ts';
import { ROUNDING_MS, type Reading } from './reading.ts';
import { describesMinuteWindow } from './window-of-limit.ts';

type HeaderBag = Readonly<Record<string, string | undefined>>;

/** Milliseconds from `receivedAt` (target time) the refusal asks to wait. */
export function refusalWaitMs(headers: HeaderBag, reading: Reading, quota: Quota, otherwiseMs: number): number {
  const retryAfter = retryAfterMs(headers['retry-after'], reading.receivedAt);
  if (retryAfter !== undefined) return retryAfter;
  return describesMinuteWindow(reading, quota) ? Math.max(0, reading.reset! * 1000 - reading.receivedAt) : otherwiseMs;
}

/**
 * The longest a refusal answered at `at` can be read to ask for: its Retry-After or its Reset (Unix seconds),
 * whichever is later. A ban (ERR-GAP-3) may show itself in either, so a refusal is taken for one when either does.
 */
export function longestAskedMs(retryAfterMs: number | undefined, reset: number, at: number): number {
  return Math.max(retryAfterMs ?? 0, reset * 1000 - at);
}

/**
 * A wait no window of `windowMs` explains: longer than the window, with Reset's and Retry-After's whole seconds
 * rounded against it on both ends. What a temporary ban (ERR-GAP-3) or a spent day asks for, not a spent window.
 */
export function longerThanWindow(waitMs: number, windowMs: number): boolean {
  return waitMs > windowMs + 2 * ROUNDING_MS;
}
