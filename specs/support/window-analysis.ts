/**
 * The suite's view of the rate-limiter model (lib/rate-limiter): readings taken from its exchanges, and the
 * model's judgements with the documented minute as the window a minute Limit is counted over.
 */
import type { Quota } from '../../lib/plans.ts';
import { readingFrom, MINUTE_WINDOW_MS, type Reading } from '../../lib/rate-limiter/reading.ts';
import { refusalWaitMs } from '../../lib/rate-limiter/refusal-wait.ts';
import { stepBetween as modelStep, stepsFromFresh as modelSteps, type Step } from '../../lib/rate-limiter/steps.ts';
import { windowOfLimit } from '../../lib/rate-limiter/window-of-limit.ts';
import type { Exchange } from './exchange.ts';

export { isAdmitted, mayHaveEnded, MINUTE_WINDOW_MS, ROUNDING_MS, type Reading } from '../../lib/rate-limiter/reading.ts';
export { describesMinuteWindow, windowKind, type WindowKind } from '../../lib/rate-limiter/window-of-limit.ts';
export { analyseBurst, remainingProblem, resetProblem, type BurstAnalysis, type BurstInput } from '../../lib/rate-limiter/burst.ts';
export type { Step } from '../../lib/rate-limiter/steps.ts';
export { longerThanWindow } from '../../lib/rate-limiter/refusal-wait.ts';

export function readingOf(exchange: Exchange): Reading {
  return readingFrom(exchange.response.status, exchange.response.headers, exchange.sentAt, exchange.receivedAt);
}

/**
 * How long a 429 asks to wait (lib/rate-limiter/refusal-wait.ts): its Retry-After; without one (RL-1) or with one
 * that is not a time (RL-2), until the Reset of headers that describe the minute window, else `otherwiseMs`.
 */
export function refusalWaitOf(exchange: Exchange, quota: Quota, otherwiseMs: number = MINUTE_WINDOW_MS): number {
  return refusalWaitMs(exchange.response.headers, readingOf(exchange), quota, otherwiseMs);
}

/** How one admitted response follows the previous one sent one at a time, in a minute window (lib/rate-limiter/steps.ts). */
export function stepBetween(previous: Reading, next: Reading): Step {
  return modelStep(previous, next, MINUTE_WINDOW_MS);
}

/**
 * How each of requests sent one at a time from the start of a fresh minute window follows the one before, a
 * bucket named by its Limit judged by the plan's window of that Limit.
 */
export function stepsFromFresh(readings: readonly Reading[], headersTrusted: boolean, quota: Quota): Step[] {
  return modelSteps(readings, headersTrusted, MINUTE_WINDOW_MS, (limit) => windowOfLimit(limit, quota));
}
