/**
 * One answer of a rate-limited target as a client sees it: its status, what its X-RateLimit-* and Retry-After
 * headers said, and when it was sent and received, in the target's time (lib/target-clock.ts). Everything the
 * model of a limiter (this folder) knows comes from readings; it never assumes a window's length or kind.
 */
import { readRateLimit } from '../rate-limit-headers.ts';
import { outcomeOf } from './admitted.ts';

/** The documented windows ("requests per minute", "per day"), in the target's time. */
export const MINUTE_WINDOW_MS = 60_000;
export const DAY_WINDOW_MS = 86_400_000;
/** Reset and Retry-After are whole seconds, and may be rounded either way. */
export const ROUNDING_MS = 1_000;

/**
 * Two Resets this many seconds apart or fewer may name one window's end: each node of a fleet writes it from the
 * one end it shares, rounded to the second up or down, and computed at its own instant (as Node's limiters write
 * `ceil((now + msLeft) / 1000)`). A Reset is known only to this, so only a move by more is a move.
 */
export const RESET_RESOLUTION_S = 1;

/** Whether two Resets (Unix seconds) may name one window's end, rounded apart. */
export function sameEndRounded(a: number, b: number): boolean {
  return Math.abs(a - b) <= RESET_RESOLUTION_S;
}

export interface Reading {
  status: number;
  limit: number | undefined;
  remaining: number | undefined;
  /** Unix seconds. */
  reset: number | undefined;
  /** Milliseconds since the epoch. */
  sentAt: number;
  receivedAt: number;
}

type HeaderBag = Readonly<Record<string, string | undefined>>;

export function readingFrom(status: number, headers: HeaderBag, sentAt: number, receivedAt: number): Reading {
  const rateLimit = readRateLimit(headers);
  return { status, limit: rateLimit?.limit, remaining: rateLimit?.remaining, reset: rateLimit?.reset, sentAt, receivedAt };
}

/** Counted towards a quota (admitted.ts): not a 429, and not a 401, a 5xx or no answer either. */
export const isAdmitted = (reading: Pick<Reading, 'status'>): boolean => outcomeOf(reading.status) === 'admitted';

/** Whether the window that ends at `reset` (Unix seconds) may have ended by `at` (ms): Reset may be rounded up. */
export function mayHaveEnded(reset: number, at: number): boolean {
  return at >= (reset - 1) * 1000;
}

/**
 * Whether an answer decided by `decidedAt` (epoch ms) naming Reset `b` names the end `a` names, rounded apart: a
 * second apart or less, and decided before either may have ended. Later, a Reset a second on may be a window that
 * began (a short window, a bucket's end moving on), so only what came before either end is one end for certain.
 */
export function roundedApartBefore(a: number, b: number, decidedAt: number): boolean {
  return sameEndRounded(a, b) && !mayHaveEnded(Math.min(a, b), decidedAt);
}
