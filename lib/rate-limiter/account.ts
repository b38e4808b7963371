/**
 * Window accounting from the target's own headers. The spec leaves the windows open (RL-GAP-2), so nothing
 * here assumes their length or alignment:
 *
 * - A window is identified by what the target says about it: X-RateLimit-Limit (which quota binds: the
 *   per-minute or the per-day one) and X-RateLimit-Reset (when it ends). Requests answered with the same pair
 *   belong to the same window. A fixed window keeps its Reset; a sliding one moves it whenever an old request
 *   ages out, which splits it into short stretches in which nothing aged out, so every count below stays true.
 * - The window's length is learned, not assumed: at least the time from a window's first admission to its
 *   first refusal (the first still counted then), at most how far ahead its Reset lay at its first request.
 * - A sliding window (or a fixed one) may hide requests ageing out behind Reset's whole seconds, so counts are
 *   only compared with the limit where nothing can have aged out yet: before a window's first refusal, or
 *   within the proven shortest window length from its start.
 * - A refusal that asks the client to wait (Retry-After, or its Reset) much longer than a window lasts starts
 *   a ban, which lasts until the next admission: the temporary ban the spec mentions (ERR-GAP-3), reported,
 *   never failed.
 * - Reset has whole-second resolution, so windows shorter than a second (a large time scale) can share one:
 *   such a merge shows as the top Remaining value (limit - 1) admitted more than once, and is reported as
 *   inconclusive instead of as an over-admission.
 */
import { plans, type PlanId } from '../plans.ts';
import { largest, smallest } from '../extremes.ts';
import type { RecognisedLimiter } from './kinds.ts';
import { decidedAfter } from './order.ts';
import { MINUTE_WINDOW_MS, ROUNDING_MS, type Reading } from './reading.ts';
import { bucketWindowBounds } from './refill.ts';
import { recogniseLimiter } from './recognise.ts';
import { longerThanWindow, longestAskedMs } from './refusal-wait.ts';
import { firmSlackMs, WindowAccountant, type AccountedAnswer } from './window-accountant.ts';
import { windowKind } from './window-of-limit.ts';

/**
 * One answer of a run as the account reads it, times in ms since the run started (a load run's observation, or
 * recorded traffic). admitted: the limiter let it through, whatever the operation answered; error: no answer.
 */
export interface Observation {
  outcome: 'admitted' | 'refused' | 'error';
  sentAt: number;
  doneAt: number;
  limit: number | undefined;
  remaining: number | undefined;
  /** Unix seconds. */
  reset: number | undefined;
  retryAfterMs: number | undefined;
  /** Sent a second time after its first connection died unanswered (HttpResponse.sentAgain): the first may have been counted. */
  sentAgain?: true;
}

export type WindowClass = 'minute' | 'day' | 'other';

/**
 * A run's firm slack (firmSlackMs): its answers are timed on one client's clock, or on generators' a quarter of a
 * second apart at most, both within the least clock skew assumed against the target's.
 */
export const RUN_SLACK_MS = firmSlackMs(0);

/** An observation as the accountant groups it, by its index among the run's observations. */
interface Member extends AccountedAnswer {
  observation: Observation;
}

export interface QuotaWindow {
  /** 1-based, per class, in the order the client first saw them. */
  number: number;
  windowClass: WindowClass;
  limit: number;
  /** X-RateLimit-Reset, Unix seconds. */
  reset: number;
  firstSentAt: number;
  lastSentAt: number;
  firstDoneAt: number;
  lastDoneAt: number;
  admitted: number;
  /**
   * Admissions that came back more than RUN_SLACK_MS before their Reset: more than the limit of them breaks the
   * quota whatever the kind of limiter, refused or not (firmlyPastLimit).
   */
  firmAdmitted: number;
  /** Ordinary refusals: the window was spent. */
  refused: number;
  /**
   * Requests of the key that got no readable answer (none, or one without the X-RateLimit headers: a timeout, a
   * connection error, a 5xx) while this window could have decided them: sent before its last answer came back and
   * answered (or given up) after its first request left. The target may have admitted each of them in this window, so
   * its counts may lack up to this many admissions, and its Remaining values as many (an upper bound).
   */
  unread: number;
  /** X-RateLimit-Remaining of each admitted request, in the order the answers came. */
  remaining: number[];
  /**
   * In a window seen from its start, Remaining of the admitted answers that came before its first request can
   * have aged out (within the shortest window length the run proved): these must count down one by one under
   * any window model. Undefined when that length is unknown or the window's start was not seen.
   */
  earlyRemaining: number[] | undefined;
  /** The client saw the window from its first request on: an admission said limit - 1 left, before any refusal of it came back (openedBeforeRefusing). */
  seenFromStart: boolean;
  /** Requests admitted before the first refusal of the window, by the order they were sent (undefined when none was refused). */
  admittedBeforeFirstRefusal: number | undefined;
  /**
   * The most the target can have admitted before it first refused, whatever order requests in flight together
   * reached it in: those sent before any refusal was answered.
   */
  admittedBeforeRefusing: number | undefined;
  /** In a window seen from its start, admissions within the proven shortest window length of its first request. */
  admittedEarly: number | undefined;
  /** Admitted answers that said 0 were left, after the first such answer: the target kept admitting an empty window. */
  admittedWhenEmpty: number;
  /** Probably several windows sharing one Reset second (see above). */
  merged: boolean;
  /** Counted from a generator's per-window sums: the order of its answers is not known. */
  fromSums?: boolean;
  /** From sums: the most X-RateLimit-Remaining a 429 of this window said was left (undefined when none said). */
  refusalsSaidLeft?: number;
  /**
   * The admissions (and their Remaining values) that came back within one minute at the run's time scale of the
   * window's first request, under its one Reset: none of them can have been given back by any legitimate limiter
   * (withinOneMinute). Undefined where that is not known: no time scale given, a minute under Reset's second, a
   * window of two Resets, or (from sums) not every admission of the window back within that minute.
   */
  withinMinute?: { admitted: number; remaining: number[] } | undefined;
}

/**
 * Whether admissions under one Reset that came back within `minuteMs` (one minute at the run's time scale) of the
 * window's first request are all its limiter had counted, whatever its kind: a fixed window or a sliding counter
 * admits at most its limit under one Reset; a sliding log keeps each request a whole minute (a shorter log would admit
 * more than the quota per minute), so nothing of them had left; a bucket's exact Reset moves on by one token's refill
 * with each admission and never back, so under one whole-second Reset it admits at most a second's refill, no more
 * than its limit once a minute lasts a second or more. Not so under two Resets a second apart (one end rounded apart),
 * nor for a minute shorter than Reset's second.
 */
export function withinOneMinute(minuteMs: number | undefined, resets: number): minuteMs is number {
  return minuteMs !== undefined && minuteMs >= ROUNDING_MS && resets === 1;
}

export interface Ban {
  /** Run time of the first ban-like refusal and of the first admission after it (if any). */
  startedAt: number;
  endedAt: number | undefined;
  /** How long the target asked the client to wait at the first ban-like refusal. */
  announcedMs: number;
  refusals: number;
  /** Ordinary refusals since the last admission, before the ban began. */
  refusalsBefore: number;
}

export interface WindowLength {
  /**
   * No window is shorter than this (ms): in a window seen from its start, the first refusal came this long
   * after the first admission, so that admission still counted then. Sound for fixed and sliding windows.
   */
  atLeastMs: number | undefined;
  /**
   * No window opened by the client's request is longer than this (ms): how far ahead its Reset lay at that
   * request, at best. Windows aligned to the clock can make it fall below atLeastMs; then it is dropped.
   */
  atMostMs: number | undefined;
  /** The best single figure: atMostMs when it is consistent, else atLeastMs. */
  estimateMs: number | undefined;
}

/**
 * What one window of the minute's Limit, seen from its start, showed of how long such a window lasts (Unix ms):
 * - `refusedSentAt`, `firstAdmittedAt`: its first refusal's request left this long after its first admission came
 *   back, given only where every admission the target can have decided before that refusal is still counted in it;
 * - `openedSentAt`: the request that opened it left then, given only where that request is known to have opened it
 *   (its window ends at Reset, no later).
 */
export interface MinuteWindowSeen {
  reset: number;
  firstAdmittedAt?: number | undefined;
  refusedSentAt?: number | undefined;
  openedSentAt?: number | undefined;
}

/**
 * A minute window's length from what windows seen from their start showed (each may bound it from below, from above,
 * or both): the longest lower bound, the shortest upper one unless it falls below that, and the best single figure.
 * The built-in engine's answers and a generator's sums each say what their windows showed; the length is made here alone.
 */
export function minuteLengthOf(seen: readonly MinuteWindowSeen[]): WindowLength {
  const atLeast = seen.flatMap(({ firstAdmittedAt, refusedSentAt }) => (firstAdmittedAt === undefined || refusedSentAt === undefined ? [] : [Math.max(0, refusedSentAt - firstAdmittedAt)]));
  const atMost = seen.flatMap(({ reset, openedSentAt }) => (openedSentAt === undefined ? [] : [reset * 1000 - openedSentAt]));
  const atLeastMs = atLeast.length ? largest(atLeast) : undefined;
  let atMostMs = atMost.length ? smallest(atMost) : undefined;
  if (atMostMs !== undefined && atLeastMs !== undefined && atMostMs < atLeastMs) atMostMs = undefined;
  return { atLeastMs, atMostMs, estimateMs: atMostMs ?? atLeastMs };
}

/**
 * fixed: nothing was ever admitted in a window after it refused, as with fixed windows; every window seen from
 * its start must then admit at most its limit. sliding: something was (requests aged out), so counts are
 * compared with the limit only where nothing can have aged out yet. unseen: no window refused, and the input
 * holds no pair decided one after the other to tell the kind by (a generator's sums, or answers always in flight
 * together): fixed windows, a sliding log and a bucket would all have answered so, and only what contradicts every
 * one of them is evidence.
 */
export type WindowModel = 'fixed' | 'sliding' | 'unseen';

export interface KeyAccount {
  plan: PlanId;
  windows: QuotaWindow[];
  model: WindowModel;
  minuteLength: WindowLength;
  bans: Ban[];
  /** Refusals judged ban-like, by their index in the observations. */
  banLike: Set<number>;
  /** Admitted answers whose Limit is neither of the plan's documented quotas. */
  undocumentedLimits: Map<number, number>;
  /** The kind of limiter the answers show (RL-GAP-2), judged with the minute window learned below. */
  limiter: RecognisedLimiter;
  /**
   * The window over which the minute Limit comes back, learned from the run: the one a bucket would need for every
   * Reset to be when it is full again, else from what was admitted while the client was being refused (a limiter
   * of any kind then admits its Limit per window), once at least a Limit's worth was admitted so.
   */
  refillWindowMs: number | undefined;
  /**
   * The shortest window over which a bucket of the minute Limit can refill for every admitted minute answer's Reset to
   * be when it is full again (bucketWindowBounds; 0 when the Resets set no floor), or undefined when none fits them:
   * the most such a bucket can give back, so a target that may be one is held to no less.
   */
  shortestBucketWindowMs: number | undefined;
}

/** Which quota an X-RateLimit-Limit value names. Enterprise is custom: its smallest limit is taken as the minute's. */
export function classOf(limit: number, plan: PlanId, observedLimits: readonly number[]): WindowClass {
  const documented = plans[plan].documented;
  if (documented) {
    const kind = windowKind({ limit }, documented);
    return kind === 'neither' ? 'other' : kind;
  }
  const minuteLimit = smallest(observedLimits);
  return limit === minuteLimit ? 'minute' : 'day';
}


/** `minuteAtScaleMs`: one minute at the run's time scale, when the run knows it (QuotaWindow.withinMinute). */
export function accountKey(observations: readonly Observation[], plan: PlanId, startedAtEpochMs: number, minuteAtScaleMs?: number): KeyAccount {
  const withHeaders = observations
    .map((observation, index) => ({ observation, index }))
    .filter(({ observation }) => observation.outcome !== 'error' && observation.limit !== undefined && observation.reset !== undefined);
  const observedLimits = [...new Set(withHeaders.map(({ observation }) => observation.limit as number))];
  const undocumentedLimits = new Map<number, number>();

  const accountant = new WindowAccountant<Member>({ order: 'input', reorderMs: 0, slackMs: RUN_SLACK_MS, keepAnswers: true, epochOffsetMs: startedAtEpochMs });
  for (const { observation, index } of withHeaders) {
    const { limit, reset, remaining } = observation as { limit: number; reset: number; remaining: number | undefined };
    if (classOf(limit, plan, observedLimits) === 'other' && observation.outcome === 'admitted') undocumentedLimits.set(limit, (undocumentedLimits.get(limit) ?? 0) + 1);
    accountant.add({ id: index, outcome: observation.outcome, limit, reset, remaining, sentAt: observation.sentAt, receivedAt: observation.doneAt, observation });
  }
  const groups = accountant.finish().map((window) => ({ windowClass: classOf(window.limit, plan, observedLimits), firmAdmitted: window.firmAdmitted, resets: window.resets.length, members: window.answers.map((answer) => ({ observation: answer.observation, index: answer.id })) }));

  // The length of a minute window, learned from windows the client saw from their start.
  const seen: MinuteWindowSeen[] = [];
  for (const { windowClass, members } of groups) {
    if (windowClass === 'day') continue;
    const observations = members.map(({ observation }) => observation);
    const admitted = observations.filter((o) => o.outcome === 'admitted');
    const first = admitted[0];
    if (!first || first.reset === undefined || first.limit === undefined) continue;
    if (largest(admitted.map((o) => o.remaining ?? -1)) !== first.limit - 1) continue;
    const firstRefusal = earliestSent(observations.filter((o) => o.outcome === 'refused'));
    // Every admission the target can have decided before this refusal must still be counted in the window when it
    // refused: true only when no more than the limit were sent before the refusal came back.
    const counted = firstRefusal !== undefined && admitted.filter((o) => decidedAfter({ receivedAt: firstRefusal.doneAt }, o, 0) === 'unknown').length <= first.limit;
    seen.push({
      reset: first.reset,
      // Only a window this admission opened ends no later than its Reset says, counted from this admission.
      openedSentAt: observations[0] === first ? startedAtEpochMs + first.sentAt : undefined,
      firstAdmittedAt: counted ? startedAtEpochMs + smallest(admitted.map((o) => o.doneAt)) : undefined,
      refusedSentAt: counted ? startedAtEpochMs + firstRefusal.sentAt : undefined,
    });
  }
  const minuteLength = minuteLengthOf(seen);
  const { atLeastMs, estimateMs } = minuteLength;

  // Ban-like refusals: on a minute-class answer, a wait much longer than a minute window lasts; and every
  // refusal after it until the next admission, as a ban's last seconds look like an ordinary wait.
  const banLike = new Set<number>();
  let inBan = false;
  for (const { observation, index } of withHeaders) {
    if (observation.outcome === 'admitted') {
      inBan = false;
      continue;
    }
    if (classOf(observation.limit as number, plan, observedLimits) === 'day') continue;
    if (longerThanWindow(longestAskedMs(observation.retryAfterMs, observation.reset as number, startedAtEpochMs + observation.doneAt), estimateMs ?? Infinity)) inBan = true;
    if (inBan) banLike.add(index);
  }

  const unread = observations.filter(unreadAnswer);
  const counters: Record<WindowClass, number> = { minute: 0, day: 0, other: 0 };
  const windows: QuotaWindow[] = [];
  let admittedAfterRefusal = false;
  for (const { windowClass, firmAdmitted, resets, members } of groups) {
    const ordinary = members.filter(({ index }) => !banLike.has(index)).map(({ observation }) => observation);
    if (ordinary.length === 0) continue;
    const first = ordinary[0] as Observation;
    const admitted = ordinary.filter((observation) => observation.outcome === 'admitted');
    const refusals = ordinary.filter((observation) => observation.outcome === 'refused');
    const firstRefusal = earliestSent(refusals);
    const limit = first.limit as number;
    const remaining = admitted.map((observation) => observation.remaining as number);
    const firstSent = smallest(ordinary.map((o) => o.sentAt));
    const lastDone = largest(ordinary.map((o) => o.doneAt));
    const emptyAnswers = remaining.filter((value) => value === 0).length;
    const seenFromStart = remaining.length > 0 && largest(remaining) === limit - 1 && openedBeforeRefusing(admitted, refusals, limit);
    const early = withinOneMinute(minuteAtScaleMs, resets) ? admitted.filter((o) => o.doneAt < firstSent + minuteAtScaleMs) : undefined;
    if (firstRefusal && admitted.some((o) => refusals.some((refusal) => decidedAfter({ receivedAt: refusal.doneAt }, o, 0) === 'after'))) admittedAfterRefusal = true;
    windows.push({
      number: ++counters[windowClass],
      windowClass,
      limit,
      reset: first.reset as number,
      firstSentAt: firstSent,
      lastSentAt: largest(ordinary.map((o) => o.sentAt)),
      firstDoneAt: smallest(ordinary.map((o) => o.doneAt)),
      lastDoneAt: lastDone,
      admitted: admitted.length,
      firmAdmitted,
      refused: refusals.length,
      unread: unread.filter((o) => o.sentAt <= lastDone && o.doneAt >= firstSent).length,
      remaining,
      earlyRemaining: atLeastMs === undefined || !seenFromStart ? undefined : admitted.filter((o) => o.doneAt < firstSent + atLeastMs).map((o) => o.remaining as number),
      admittedEarly: atLeastMs === undefined || !seenFromStart ? undefined : admitted.filter((o) => o.doneAt < firstSent + atLeastMs).length,
      seenFromStart,
      admittedBeforeFirstRefusal: firstRefusal ? admitted.filter((o) => o.sentAt <= firstRefusal.sentAt).length : undefined,
      admittedBeforeRefusing: firstRefusal ? admittedBeforeRefusing(admitted, refusals) : undefined,
      admittedWhenEmpty: Math.max(0, emptyAnswers - 1),
      merged: (estimateMs ?? Infinity) < 1_000 - 100 && admitted.length > limit && topValueRepeats(admitted, limit),
      withinMinute: early && { admitted: early.length, remaining: early.map((o) => o.remaining as number) },
    });
  }

  const minuteLimit = plans[plan].documented?.perMinute ?? smallest(observedLimits);
  const refillWindowMs = refillWindowOf(observations, minuteLimit);
  const readings = withHeaders.filter(({ index }) => !banLike.has(index)).map(({ observation }) => readingOf(observation, startedAtEpochMs));
  const bucketBounds = bucketBoundsOf(readings, minuteLimit);
  const bucketWindowMs = bucketBounds === undefined || bucketBounds.atLeastMs <= 0 ? undefined : refillWindowMs !== undefined && refillWindowMs >= bucketBounds.atLeastMs && refillWindowMs <= bucketBounds.atMostMs ? refillWindowMs : bucketBounds.atLeastMs;
  const limiter = recogniseLimiter(readings, {
    windowOf: (limit) => (limit === minuteLimit ? (bucketWindowMs ?? refillWindowMs ?? estimateMs) : undefined),
    minuteLimit,
    ...(plans[plan].documented ? { dayLimit: plans[plan].documented.perDay } : {}),
    lost: unread.map((observation) => readingOf(observation, startedAtEpochMs)),
  });
  // Never refused, and no answers decided one after the other showed the kind (always in flight together): as on sums.
  const model: WindowModel = admittedAfterRefusal ? 'sliding' : windows.some((window) => window.refused > 0) || !limiter.unordered ? 'fixed' : 'unseen';
  return { plan, windows, model, minuteLength, bans: bansOf(observations, banLike), banLike, undocumentedLimits, limiter, refillWindowMs: bucketWindowMs ?? refillWindowMs, shortestBucketWindowMs: bucketBounds?.atLeastMs };
}

/**
 * A request whose answer was lost, which the target may have admitted: no answer came (a timeout, a connection
 * error), an error came instead (a 5xx), or it is the first sending of one the client sent again (its connection died
 * unanswered).
 */
export function lostAnswer(observation: Pick<Observation, 'outcome' | 'sentAgain'>): boolean {
  return observation.sentAgain === true || observation.outcome === 'error';
}

/**
 * A request the target may have admitted that no window holds: a lost answer, or an admission without the X-RateLimit
 * headers that place it. A refusal, read or not, admitted nothing.
 */
function unreadAnswer(observation: Observation): boolean {
  return lostAnswer(observation) || (observation.outcome === 'admitted' && (observation.limit === undefined || observation.remaining === undefined || observation.reset === undefined));
}

/**
 * The windows a bucket of the minute Limit may refill over, when every admitted minute answer's Reset is when such a
 * bucket would be full again for some window no longer than the documented minute (a time scale only shortens it).
 * The account takes the one learned from what was admitted while refused, if it fits, else the shortest that fits
 * (once the Resets set it a floor);
 * what may come back at most is judged with the shortest (the most refill, so a legitimate bucket is never held to
 * less than it gives back).
 */
function bucketBoundsOf(readings: readonly Reading[], minuteLimit: number): { atLeastMs: number; atMostMs: number } | undefined {
  const admitted = readings.filter((reading) => reading.status !== 429 && reading.limit === minuteLimit);
  return admitted.length < 2 ? undefined : bucketWindowBounds(admitted, MINUTE_WINDOW_MS);
}

/** An answer as the model of a limiter reads it, on the Unix clock; status 0 for no answer. */
export function readingOf(observation: Observation, startedAtEpochMs: number): Reading {
  return {
    status: observation.outcome === 'refused' ? 429 : observation.outcome === 'error' ? 0 : 200,
    limit: observation.limit,
    remaining: observation.remaining,
    reset: observation.reset,
    sentAt: startedAtEpochMs + observation.sentAt,
    receivedAt: startedAtEpochMs + observation.doneAt,
  };
}

/**
 * While a limiter refuses some of a client's requests it admits what it gives back: its Limit per window, whatever
 * its kind. Learned from the minute-class answers between the first refusal and the last, and the requests between
 * them that got no readable answer.
 */
function refillWindowOf(observations: readonly Observation[], minuteLimit: number): number | undefined {
  const minute = observations.filter((o) => o.outcome !== 'error' && o.limit === minuteLimit);
  const first = minute.findIndex((o) => o.outcome === 'refused');
  const last = minute.map((o) => o.outcome).lastIndexOf('refused');
  if (first === -1 || last <= first) return undefined;
  const admitted = minute.slice(first, last).filter((o) => o.outcome === 'admitted').length;
  const [from, to] = [minute[first]!.sentAt, minute[last]!.sentAt];
  // Requests whose answers were lost meanwhile may have been admitted too: counted so, the window learned is no longer
  // than the limiter's, and what it may give back no less.
  const unread = observations.filter((o) => unreadAnswer(o) && o.sentAt >= from && o.sentAt <= to).length;
  return admitted >= minuteLimit ? ((to - from) * minuteLimit) / (admitted + unread) : undefined;
}

/**
 * The client saw the window from its first request on: an admission said limit - 1 were left, and the target can have
 * decided it before any refusal of the window came back. One sent after a refusal came back shows only that a limiter
 * giving quota back (a bucket, whose Reset moves as tokens come back) refilled under the same whole-second Reset: the
 * admissions that emptied it went under earlier Resets, so the window's count before its refusal is not all it admitted.
 */
function openedBeforeRefusing(admitted: readonly Observation[], refusals: readonly Observation[], limit: number): boolean {
  const firstRefusalAnswered = refusals.length ? smallest(refusals.map((o) => o.doneAt)) : Infinity;
  return admitted.some((o) => o.remaining === limit - 1 && decidedAfter({ receivedAt: firstRefusalAnswered }, o, 0) !== 'after');
}

function admittedBeforeRefusing(admitted: readonly Observation[], refusals: readonly Observation[]): number {
  const firstRefusalAnswered = smallest(refusals.map((o) => o.doneAt));
  return admitted.filter((o) => o.sentAt < firstRefusalAnswered).length;
}

/** The request sent first (answers can come back in another order when several are in flight). */
function earliestSent(observations: readonly Observation[]): Observation | undefined {
  return observations.reduce<Observation | undefined>((earliest, o) => (earliest === undefined || o.sentAt < earliest.sentAt ? o : earliest), undefined);
}

function topValueRepeats(observations: readonly Observation[], limit: number): boolean {
  let seen = 0;
  for (const observation of observations) if (observation.outcome === 'admitted' && observation.remaining === limit - 1) seen++;
  return seen > 1;
}

/** Runs of ban-like refusals, each ended by the next admission; with the ordinary refusals that led to each. */
function bansOf(observations: readonly Observation[], banLike: ReadonlySet<number>): Ban[] {
  const bans: Ban[] = [];
  let current: Ban | undefined;
  let refusalsSinceAdmission = 0;
  observations.forEach((observation, index) => {
    if (banLike.has(index)) {
      if (!current) {
        current = { startedAt: observation.doneAt, endedAt: undefined, announcedMs: observation.retryAfterMs ?? 0, refusals: 0, refusalsBefore: refusalsSinceAdmission };
        bans.push(current);
      }
      current.refusals++;
    } else if (observation.outcome === 'refused') refusalsSinceAdmission++;
    else if (observation.outcome === 'admitted') {
      refusalsSinceAdmission = 0;
      if (current) current.endedAt = observation.doneAt;
      current = undefined;
    }
  });
  return bans;
}
