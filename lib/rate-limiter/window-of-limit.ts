/**
 * Which documented window an answer's headers describe, told by its X-RateLimit-Limit: the plan's per-minute
 * quota or its per-day one. A server with a minute and a day limiter may send either (RL-5 allows both).
 */
import type { Quota } from '../plans.ts';
import { DAY_WINDOW_MS, isAdmitted, MINUTE_WINDOW_MS, ROUNDING_MS, type Reading } from './reading.ts';

export type WindowKind = 'minute' | 'day' | 'neither';

export function windowKind(reading: Pick<Reading, 'limit'>, quota: Quota): WindowKind {
  if (reading.limit === quota.perMinute) return 'minute';
  return reading.limit === quota.perDay ? 'day' : 'neither';
}

/** The documented window a Limit is counted over (target time), or undefined for a Limit that is neither quota. */
export function windowOfLimit(limit: number, quota: Quota): number | undefined {
  return documentedWindowMs(windowKind({ limit }, quota));
}

/** How long the documented window of a kind lasts (target time); undefined for a Limit that names neither. */
export function documentedWindowMs(kind: string): number | undefined {
  return kind === 'minute' ? MINUTE_WINDOW_MS : kind === 'day' ? DAY_WINDOW_MS : undefined;
}

/**
 * Whether the headers can be trusted to say where the minute window stands: they describe the minute window, a
 * Remaining below the Limit once the request was admitted, and a Reset no later than a minute (and the second it
 * rounds to) after the request. Anything else (the day's window, a Reset in seconds from now, a Remaining that
 * never falls) still lets the quota be counted, but not found from the headers.
 */
export function describesMinuteWindow(reading: Reading, quota: Quota): boolean {
  const { limit, remaining, reset } = reading;
  if (windowKind(reading, quota) !== 'minute' || remaining === undefined || reset === undefined || limit === undefined) return false;
  if (isAdmitted(reading) && remaining >= limit) return false;
  return reset * 1000 >= reading.sentAt - ROUNDING_MS && reset * 1000 <= reading.receivedAt + MINUTE_WINDOW_MS + ROUNDING_MS;
}
