/**
 * RL-6 on admissions the capture cannot order, whatever the limiter's kind: a key's admissions under one Limit, all
 * answered well before the earliest Reset they name, judged as a set (as the suite judges its burst). Their Resets
 * name one end (a second apart at most, as nodes round it): where Reset itself moves, RL-7 is what it shows.
 *
 * Whichever of them the target decided first said at most the highest Remaining among them, and each decided after it
 * took one more; requests the capture does not hold only took more. What can come back meanwhile:
 * - under a fixed window or a sliding log, nothing: no window ended, no request of the log aged out, before that
 *   Reset (a log's Reset is when its oldest request leaves; each of these left later). The last decided said at most
 *   Limit - n, n the admissions;
 * - under a token bucket or a sliding counter, as fast as Reset allows: a bucket is full again, or a counter's window
 *   ends, no later than a window after a decision, so a window is at least as long as the furthest any of them put
 *   Reset ahead, and no more than Limit come back in it. The last decided said at most the highest Remaining
 *   - (n - 1) + what came back in the time they span (with the clock skew at each end), and one for each header's
 *   rounding.
 * The lowest Remaining among them is no higher than the last decided's. When it is higher than both bounds, no kind
 * and no order explains the countdown: Remaining that does not fall (a value stuck, or always the Limit) fails.
 * Admissions whose request's time the capture does not hold are not judged so: a slow request may have been decided
 * long before its answer.
 */
import { RESET_RESOLUTION_S } from '../../lib/rate-limiter/reading.ts';
import type { Contradiction } from './contradiction.ts';

export interface SpanAdmission {
  /** The exchange's position in the capture. */
  id: number;
  remaining: number;
  reset: number;
  sentAt: number | undefined;
  receivedAt: number;
}

export interface SpanOptions {
  /** Answers this close to a Reset may have come after it (the capture's clock against the target's). */
  slackMs: number;
  clockSkewMs: number;
  /** How far back in time the capture may go and still be put in order (window-accountant.ts). */
  reorderMs: number;
}

interface Span {
  count: number;
  lowest: SpanAdmission;
  highest: SpanAdmission;
  earliestReset: number;
  latestReset: number;
  firstSent: number;
  lastAnswered: number;
  /** The furthest any of them put Reset ahead of when it was decided, at the least: a window is no shorter. */
  leastWindowMs: number;
  /** Found broken already: the admissions after it in the window add nothing to say. */
  reported: boolean;
}

const RESOLUTION_MS = RESET_RESOLUTION_S * 1000;
/** Remaining rounded by the target at the first and the last decided (a sliding counter counts in fractions). */
const ROUNDING = 2;

/** Gathered admissions are cut off the pending list once this many are (and at least half the list). */
const GATHERED_CUT_OFF = 1_024;
/** An admission whose request's time the capture holds. */
type Timed = SpanAdmission & { sentAt: number };

/**
 * The order admissions are gathered in: by answer, then by what they said, never by their place in the capture, so
 * files catenated in another order within the reorder buffer gather them alike.
 */
function gatheredBefore(a: Timed, b: Timed): number {
  return a.receivedAt - b.receivedAt || a.sentAt - b.sentAt || b.remaining - a.remaining || a.reset - b.reset;
}

export class AdmissionsInASpan {
  private span: Span | undefined;
  /**
   * Admissions still within the reorder buffer of the latest answer, in the order they are gathered in, from `head`
   * on: those before it were gathered, cut off in batches (GATHERED_CUT_OFF), where shift() moved the whole list (a
   * key's ten seconds of admissions) for each one gathered.
   */
  private pending: Timed[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly options: SpanOptions,
    private readonly found: (contradiction: Contradiction) => void,
  ) {}

  add(admission: SpanAdmission): void {
    if (admission.sentAt === undefined) return;
    const timed = admission as Timed;
    const pending = this.pending;
    // Most come in order: their place is found from the end.
    let at = pending.length;
    while (at > this.head && gatheredBefore(timed, pending[at - 1]!) < 0) at--;
    if (at === pending.length) pending.push(timed);
    else pending.splice(at, 0, timed);
    const latest = pending[pending.length - 1]!.receivedAt;
    while (pending[this.head]!.receivedAt < latest - this.options.reorderMs) this.gather(pending[this.head++]!);
    if (this.head >= GATHERED_CUT_OFF && this.head * 2 >= pending.length) {
      this.pending = pending.slice(this.head);
      this.head = 0;
    }
  }

  /** Judges the admissions gathered so far, and those still waiting. */
  finish(): void {
    const waiting = this.pending.slice(this.head);
    this.pending = [];
    this.head = 0;
    for (const admission of waiting) this.gather(admission);
    this.judge();
  }

  private gather(admission: Timed): void {
    const span = this.span;
    const earliestReset = Math.min(span?.earliestReset ?? Infinity, admission.reset);
    const latestReset = Math.max(span?.latestReset ?? -Infinity, admission.reset);
    const lastAnswered = Math.max(span?.lastAnswered ?? -Infinity, admission.receivedAt);
    if (span && latestReset - earliestReset <= RESET_RESOLUTION_S && lastAnswered < earliestReset * 1000 - this.options.slackMs) {
      const firstSent = Math.min(span.firstSent, admission.sentAt);
      const leastWindowMs = Math.max(span.leastWindowMs, this.leadOf(admission));
      // Judged as they grow, once, since one answered later lets more come back and must not hide what those before
      // showed; once they would span a window, in which anything may come back, this one starts anew. Grown in place:
      // a span made anew for each admission was a twentieth of what judging an exchange allocated (the bench HAR: 32 of 562 MB).
      if (this.spanMsBetween(firstSent, lastAnswered) < leastWindowMs) {
        span.count++;
        if (admission.remaining < span.lowest.remaining) span.lowest = admission;
        if (admission.remaining > span.highest.remaining) span.highest = admission;
        span.earliestReset = earliestReset;
        span.latestReset = latestReset;
        span.firstSent = firstSent;
        span.lastAnswered = lastAnswered;
        span.leastWindowMs = leastWindowMs;
        this.report(span);
        return;
      }
    }
    this.judge();
    if (admission.receivedAt >= admission.reset * 1000 - this.options.slackMs) return;
    this.span = { count: 1, lowest: admission, highest: admission, earliestReset: admission.reset, latestReset: admission.reset, firstSent: admission.sentAt, lastAnswered: admission.receivedAt, leastWindowMs: this.leadOf(admission), reported: false };
  }

  private judge(): void {
    if (this.span) this.report(this.span);
    this.span = undefined;
  }

  private report(span: Span): void {
    const bounds = span.reported ? undefined : this.broken(span);
    if (!bounds) return;
    span.reported = true;
    const { spanMs, windowMost, refilledMost } = bounds;
    this.found({
      check: 'remaining-steps',
      message: `expected X-RateLimit-Remaining to fall with ${span.count} admissions of Limit ${this.limit}, answered within ${seconds(spanMs)} (the clock skew at each end included), all well before the Reset they name (${span.earliestReset}): whatever order they were decided in, the last said at most ${Math.max(windowMost, 0)} under a fixed window or a sliding log, and at most ${refilledMost} under a token bucket or a sliding counter giving back as fast as their Reset allows (a window of at least ${seconds(span.leastWindowMs)}); every one said ${span.lowest.remaining} or more`,
      exchanges: [...new Set([span.highest.id, span.lowest.id])].sort((a, b) => a - b),
    });
  }

  /**
   * The most the last decided of them can have said, under a window or a log (nothing back) and under a bucket or a
   * counter (as fast as Reset allows), when every one of them said more than both; undefined otherwise, or when they
   * span a window, in which anything may come back.
   */
  private broken(span: Span): { spanMs: number; windowMost: number; refilledMost: number } | undefined {
    const spanMs = this.spanMs(span);
    if (span.count < 2 || spanMs >= span.leastWindowMs) return undefined;
    const cameBack = Math.ceil((this.limit * spanMs) / span.leastWindowMs) + ROUNDING;
    const windowMost = this.limit - span.count;
    const refilledMost = span.highest.remaining - (span.count - 1) + cameBack;
    return span.lowest.remaining > Math.max(windowMost, refilledMost) ? { spanMs, windowMost, refilledMost } : undefined;
  }

  /** The time in which the target decided them, at the most: from the first request sent to the last answer, the clock skew at each end. */
  private spanMs(span: Span): number {
    return this.spanMsBetween(span.firstSent, span.lastAnswered);
  }

  private spanMsBetween(firstSent: number, lastAnswered: number): number {
    return lastAnswered - firstSent + 2 * this.options.clockSkewMs;
  }

  /** How far ahead of its decision an admission put Reset, at the least: rounding and the clock skew taken off. */
  private leadOf(admission: SpanAdmission): number {
    return admission.reset * 1000 - RESOLUTION_MS - admission.receivedAt - this.options.clockSkewMs;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
