/**
 * The suite's view of the rate-limiter model (lib/rate-limiter): readings taken from its exchanges, and the
 * model's judgements with the documented minute as the window a minute Limit is counted over.
 */
import { readingFrom, MINUTE_WINDOW_MS, type Reading } from '../../lib/rate-limiter/reading.ts';
import { stepBetween as modelStep, stepsFromFresh as modelSteps, type Step } from '../../lib/rate-limiter/steps.ts';
import type { Exchange } from './exchange.ts';

export { isAdmitted, mayHaveEnded, MINUTE_WINDOW_MS, ROUNDING_MS, type Reading } from '../../lib/rate-limiter/reading.ts';
export { describesMinuteWindow, windowKind, type WindowKind } from '../../lib/rate-limiter/window-of-limit.ts';
export { analyseBurst, remainingProblem, resetProblem, type BurstAnalysis, type BurstInput } from '../../lib/rate-limiter/burst.ts';
export type { Step } from '../../lib/rate-limiter/steps.ts';

export function readingOf(exchange: Exchange): Reading {
  return readingFrom(exchange.response.status, exchange.response.headers, exchange.sentAt, exchange.receivedAt);
}

/** How one admitted response follows the previous one sent one at a time, in a minute window (lib/rate-limiter/steps.ts). */
export function stepBetween(previous: Reading, next: Reading): Step {
  return modelStep(previous, next, MINUTE_WINDOW_MS);
}

/** How each of requests sent one at a time from the start of a fresh minute window follows the one before. */
export function stepsFromFresh(readings: readonly Reading[], headersTrusted: boolean): Step[] {
  return modelSteps(readings, headersTrusted, MINUTE_WINDOW_MS);
}
