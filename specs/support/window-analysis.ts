/**
 * Reading rate-limit windows from the target's own headers, with no knowledge of their length or kind
 * (fixed or sliding, aligned to the clock or to first use). Pure functions over what responses said and
 * when, so each judgement can be tested on made-up sequences.
 *
 * A window has ended by the target's own word once the clock passes its X-RateLimit-Reset. Reset is whole
 * seconds and may be rounded either way, so "may have ended" starts one second before it.
 */
import type { Quota } from '../../lib/plans.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import type { Exchange } from './exchange.ts';

/** The documented minute window ("requests per minute"), in the target's time. */
export const MINUTE_WINDOW_MS = 60_000;
/** Reset and Retry-After are whole seconds, and may be rounded either way. */
export const ROUNDING_MS = 1_000;

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

export function readingOf(exchange: Exchange): Reading {
  const headers = readRateLimit(exchange.response.headers);
  return {
    status: exchange.response.status,
    limit: headers?.limit,
    remaining: headers?.remaining,
    reset: headers?.reset,
    sentAt: exchange.sentAt,
    receivedAt: exchange.receivedAt,
  };
}

export const isAdmitted = (reading: Reading): boolean => reading.status !== 429;

/**
 * Which documented window a response's headers describe, told by its Limit: the plan's per-minute quota or its
 * per-day one. A server with a minute and a day limiter may send either (RL-5 allows both); a Limit that is
 * neither (or none) describes no documented window.
 */
export type WindowKind = 'minute' | 'day' | 'neither';

export function windowKind(reading: Reading, quota: Quota): WindowKind {
  if (reading.limit === quota.perMinute) return 'minute';
  return reading.limit === quota.perDay ? 'day' : 'neither';
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

/** Whether the window that ends at `reset` (Unix seconds) may have ended by `at` (ms). */
export function mayHaveEnded(reset: number, at: number): boolean {
  return at >= (reset - 1) * 1000;
}

/** A reading that shows a later window than the one ending at `reset`, with `remaining` left. */
function showsLaterWindow(reading: Reading, reset: number, remaining: number): boolean {
  if (!isAdmitted(reading)) return false;
  const later = reading.reset !== undefined && reading.reset > reset;
  const refilled = reading.remaining !== undefined && reading.remaining > remaining;
  return (later || refilled) && mayHaveEnded(reset, reading.receivedAt);
}

export interface BurstInput {
  /** The request that found the window fresh (Remaining = Limit - 1, or the first admitted after a refusal waited out). */
  probe: Reading;
  /** The requests sent at once right after it. */
  burst: readonly Reading[];
  /** The one request sent after the burst had been answered. */
  extra: Reading;
  /**
   * The probe's headers describe the minute window (describesMinuteWindow): a window that ends during the burst
   * shows in them. Otherwise the window is known to hold only while the whole measurement lasts less than a
   * documented minute from the probe, which opened it.
   */
  headersTrusted?: boolean;
}

export type BurstAnalysis =
  | { kind: 'rolled-over'; reason: string }
  | {
      kind: 'measured';
      /** Admitted in the window, the probe included. */
      admitted: number;
      /** Burst requests refused. */
      refusedInBurst: number;
      extraRefused: boolean;
      /** Why the Remaining values of the admitted burst are not exactly probe-1 … probe-n, once each. */
      remainingProblem: string | undefined;
      /** Why the Reset values of the admitted burst are not all the probe's. */
      resetProblem: string | undefined;
    };

export function analyseBurst({ probe, burst, extra, headersTrusted = true }: BurstInput): BurstAnalysis {
  const { reset, remaining } = probe;
  if (headersTrusted) {
    if (reset === undefined || remaining === undefined) return { kind: 'rolled-over', reason: 'the probe carried no readable X-RateLimit-* headers' };
    const later = [...burst, extra].find((reading) => showsLaterWindow(reading, reset, remaining));
    if (later) {
      return { kind: 'rolled-over', reason: `a response showed a new window (Reset ${later.reset}, Remaining ${later.remaining}) after the one ending at ${reset}` };
    }
    if (isAdmitted(extra) && extra.sentAt >= reset * 1000) {
      return { kind: 'rolled-over', reason: `the request after the burst was sent after the window's Reset (${reset})` };
    }
  } else if (extra.sentAt - probe.sentAt >= MINUTE_WINDOW_MS - ROUNDING_MS) {
    return { kind: 'rolled-over', reason: `the measurement lasted ${((extra.sentAt - probe.sentAt) / 1000).toFixed(1)} s of the target's time, nearly a minute window, and the headers do not say where the window ends` };
  }
  const admitted = burst.filter(isAdmitted);
  return {
    kind: 'measured',
    admitted: 1 + admitted.length,
    refusedInBurst: burst.length - admitted.length,
    extraRefused: !isAdmitted(extra),
    remainingProblem: remaining === undefined ? undefined : remainingProblem(remaining, admitted),
    resetProblem: reset === undefined ? undefined : resetProblem(reset, admitted),
  };
}

/**
 * Under concurrency responses arrive in any order, but the admitted ones must still have been handed
 * Remaining values from just below the probe's down, each exactly once.
 */
export function remainingProblem(afterProbe: number, admitted: readonly Reading[]): string | undefined {
  const values = admitted.map((reading) => reading.remaining);
  if (values.some((value) => value === undefined)) return 'some admitted responses carried no readable X-RateLimit-Remaining';
  const counts = new Map<number, number>();
  for (const value of values as number[]) counts.set(value, (counts.get(value) ?? 0) + 1);
  const expected = Array.from({ length: admitted.length }, (_, index) => afterProbe - 1 - index);
  const missing = expected.filter((value) => !counts.has(value));
  const repeated = [...counts].filter(([, count]) => count > 1).map(([value, count]) => `${value} (${count} times)`);
  const unexpected = [...counts.keys()].filter((value) => !expected.includes(value)).sort((a, b) => b - a);
  if (missing.length === 0 && repeated.length === 0 && unexpected.length === 0) return undefined;
  const parts = [
    repeated.length > 0 ? `repeated ${list(repeated)}` : '',
    unexpected.length > 0 ? `unexpected ${list(unexpected.map(String))}` : '',
    missing.length > 0 ? `missing ${list(missing.map(String))}` : '',
  ].filter(Boolean);
  const range = admitted.length === 0 ? 'none' : `${afterProbe - 1} down to ${afterProbe - admitted.length}`;
  return `expected the ${admitted.length} admitted responses after Remaining ${afterProbe} to carry X-RateLimit-Remaining ${range}, each once; got ${parts.join('; ')}`;
}

export function resetProblem(reset: number, admitted: readonly Reading[]): string | undefined {
  const others = [...new Set(admitted.map((reading) => reading.reset).filter((value) => value !== reset))];
  if (others.length === 0) return undefined;
  return `expected X-RateLimit-Reset to stay at ${reset} within the window, got ${list(others.map(String))}`;
}

export type Step = 'same-window' | 'new-window' | 'reset-moved';

/**
 * How one admitted response follows the previous one sent one at a time: in the same window (same Reset),
 * in a new window (a later Reset once the old one may have ended), or with a Reset that moved while the
 * window could not have ended.
 */
export function stepBetween(previous: Reading, next: Reading): Step {
  if (previous.reset === undefined || next.reset === undefined || next.reset === previous.reset) return 'same-window';
  return next.reset > previous.reset && mayHaveEnded(previous.reset, next.receivedAt) ? 'new-window' : 'reset-moved';
}

/**
 * How each of requests sent one at a time from the start of a fresh window follows the one before (the first has
 * no step). With headers that describe the minute window, by them (stepBetween). Otherwise every request sent
 * less than a documented minute after the first, which opened the window, is still in it, and a Reset that differs
 * from the one before moved within it.
 */
export function stepsFromFresh(readings: readonly Reading[], headersTrusted: boolean): Step[] {
  const first = readings[0];
  return readings.slice(1).map((next, index) => {
    const previous = readings[index]!;
    if (headersTrusted) return stepBetween(previous, next);
    if (next.sentAt - first!.sentAt >= MINUTE_WINDOW_MS - ROUNDING_MS) return 'new-window';
    return next.reset === previous.reset ? 'same-window' : 'reset-moved';
  });
}

function list(items: readonly string[]): string {
  return items.length > 6 ? `${items.slice(0, 6).join(', ')} and ${items.length - 6} more` : items.join(', ');
}
