/**
 * One admitted answer after another, sent one at a time: how the second follows the first, and whether its
 * headers say what they mean. X-RateLimit-Reset says when the limit resets; it may stay put (a fixed window, a
 * sliding log until its oldest request leaves), jump forward once that time has come (a new window), or move
 * forward with every token spent when it says when a bucket is full again. Anything else contradicts it.
 */
import { mayHaveEnded, ROUNDING_MS, sameEndRounded, type Reading } from './reading.ts';
import { fullAtReset, refillAllowance } from './refill.ts';

/**
 * same-window: the same Reset, or one a second apart well before either came (one end rounded apart by two nodes,
 * reading.ts). new-window: a later Reset once the old one may have come, or the same Reset with
 * Remaining back up once it may have come (a bucket that filled up). refilling: a later Reset before then, where each Reset is when a bucket of the Limit would
 * be full again. limit-changed: the headers name another Limit, another window's count (two limiters, each naming
 * itself when it binds, and the other binds now), so neither Remaining nor Reset follows from the one before.
 * reset-moved: anything else.
 */
export type Step = 'same-window' | 'new-window' | 'refilling' | 'limit-changed' | 'reset-moved';

export function stepBetween(previous: Reading, next: Reading, windowMs: number, anchor = previous.reset): Step {
  if (limitChanged(previous, next)) return 'limit-changed';
  if (previous.reset === undefined || next.reset === undefined) return 'same-window';
  if (next.reset === previous.reset) return refilledAtReset(previous, next) ? 'new-window' : 'same-window';
  if (roundedApart(previous.reset, next.reset, anchor) && (next.reset < previous.reset || !mayHaveEnded(previous.reset, next.receivedAt))) return 'same-window';
  if (next.reset < previous.reset) return 'reset-moved';
  if (mayHaveEnded(previous.reset, next.receivedAt)) return 'new-window';
  return fullAtReset(previous, windowMs) && fullAtReset(next, windowMs) ? 'refilling' : 'reset-moved';
}

/**
 * Resets a second apart that may name one end rounded apart by two nodes: within a second of the one before and of
 * the window's `anchor` (the Reset its first answer named), so a Reset drifting a second at a time still moves.
 */
function roundedApart(previous: number, next: number, anchor: number | undefined): boolean {
  return sameEndRounded(next, previous) && (anchor === undefined || sameEndRounded(next, anchor));
}

/**
 * Steps between answers one after the other, each judged by stepBetween against the Reset its window first named
 * (per Limit): what a caller walking a key's answers in order uses, so one end rounded apart is no move and a drift is.
 */
export class AnchoredSteps {
  private readonly anchors = new Map<number | undefined, number | undefined>();

  step(previous: Reading, next: Reading, windowMs: number): Step {
    // The window's anchor, while `previous` is still in that window (pairs a caller skips may have left it behind).
    const kept = this.anchors.get(next.limit);
    const anchor = kept !== undefined && previous.reset !== undefined && sameEndRounded(previous.reset, kept) ? kept : previous.reset;
    const step = stepBetween(previous, next, windowMs, anchor);
    this.anchors.set(next.limit, step === 'same-window' ? anchor : next.reset);
    return step;
  }

  /** Why `next`'s Reset contradicts `previous`'s, judged as `step` judges it, or undefined when it does not. */
  problem(previous: Reading, next: Reading, windowMs: number): string | undefined {
    return this.step(previous, next, windowMs) === 'reset-moved' ? resetMovedText(previous, next) : undefined;
  }
}

/** A Remaining that did not fall once the Reset before it may have come: the window (or bucket) filled up again. */
function refilledAtReset(previous: Reading, next: Reading): boolean {
  return mayHaveEnded(previous.reset!, next.receivedAt) && next.remaining !== undefined && previous.remaining !== undefined && next.remaining >= previous.remaining;
}

/**
 * Why the Remaining of `next` (admitted) does not follow from `previous` in the same window or bucket (the caller
 * knows they are: by their Reset, which has not come, or by the time between them): it must be
 * one less; where the limiter gives its quota back over time (`refills`: a bucket, a sliding counter), up to as
 * many more as it can give back in the time between them. Undefined when it does.
 */
export function remainingStepProblem(previous: Reading, next: Reading, windowMs: number, refills: boolean): string | undefined {
  if (previous.remaining === undefined || previous.limit === undefined || limitChanged(previous, next)) return undefined;
  const expected = previous.remaining - 1;
  if (next.remaining === expected) return undefined;
  const back = refills ? refillAllowance(previous.limit, windowMs, next.receivedAt - previous.sentAt) : 0;
  if (next.remaining !== undefined && next.remaining >= expected && next.remaining <= expected + back) return undefined;
  const seconds = ((next.receivedAt - previous.sentAt) / 1000).toFixed(1);
  if (expected < 0 && back === 0) return `X-RateLimit-Remaining said 0 were left, yet a request decided after it was admitted in the same window, saying ${next.remaining ?? 'none'}`;
  const room = back === 0 ? '' : ` (or up to ${expected + back}, as ${back} of ${previous.limit} a window can come back in ${seconds} s)`;
  return `expected X-RateLimit-Remaining to fall from ${previous.remaining} to ${expected}${room}, got ${next.remaining ?? 'none'}`;
}

/** Why `next`'s Reset contradicts `previous`'s (see Step), or undefined when it does not. */
export function resetStepProblem(previous: Reading, next: Reading, windowMs: number): string | undefined {
  return stepBetween(previous, next, windowMs) === 'reset-moved' ? resetMovedText(previous, next) : undefined;
}

/** The words of a Reset that moved, for a caller that decided so itself (stepsFromFresh, the judge's order). */
export function resetMovedText(previous: Reading, next: Reading): string {
  const direction = next.reset! < previous.reset! ? 'back' : 'forward';
  return `expected X-RateLimit-Reset to stay at ${previous.reset} within the window (it had not ended), got ${next.reset}: it moved ${direction}, and is not when a bucket with ${next.remaining ?? 'no'} of ${next.limit ?? '?'} left would be full again`;
}

/**
 * How each of requests sent one at a time from the start of a fresh window follows the one before (the first has
 * no step). Each step is judged by the window its Limit names (`windowOf`: the documented window a Limit is
 * counted over; `windowMs` for a Limit that names none): a day's bucket that binds the headers moves its Reset on
 * with every request, as a bucket of a day refills, never learned from the readings (two would fit a broken Reset
 * too). With headers that describe the window, by them (stepBetween). Otherwise every request sent less than
 * `windowMs` after the first, which opened the window, is still in it, and a Reset that differs from the one
 * before moved within it, unless it moved forward as a bucket of the named window refills.
 */
export function stepsFromFresh(readings: readonly Reading[], headersTrusted: boolean, windowMs: number, windowOf: (limit: number) => number | undefined): Step[] {
  const first = readings[0];
  const anchored = new AnchoredSteps();
  return readings.slice(1).map((next, index) => {
    const previous = readings[index]!;
    const namedMs = (next.limit === undefined ? undefined : windowOf(next.limit)) ?? windowMs;
    if (headersTrusted || limitChanged(previous, next)) return anchored.step(previous, next, namedMs);
    if (next.sentAt - first!.sentAt >= windowMs - ROUNDING_MS) return 'new-window';
    if (next.reset === previous.reset || (next.reset !== undefined && previous.reset !== undefined && roundedApart(previous.reset, next.reset, first!.reset))) return 'same-window';
    const forward = previous.reset !== undefined && next.reset !== undefined && next.reset > previous.reset;
    return forward && fullAtReset(previous, namedMs) && fullAtReset(next, namedMs) ? 'refilling' : 'reset-moved';
  });
}

/** Both name a Limit, and not the same one: they count different windows. */
function limitChanged(previous: Reading, next: Reading): boolean {
  return previous.limit !== undefined && next.limit !== undefined && previous.limit !== next.limit;
}
