/**
 * A key's account from the Locust engine's per-window sums, fed to the one window accountant (addSums) as they
 * are: counts, Remaining values and the measured first and last times of each window, never answers made up to
 * stand for them. What holds whatever the order of answers within a window is filled in (a window's counts, the
 * multiset of its Remaining values, whether it was seen from its start, whether a generator was admitted after its
 * own refusal); what needs that order is left undefined, and its checks say so (summed.ts).
 */
import { plans, type PlanId } from '../../../lib/plans.ts';
import { largest, smallest } from '../../../lib/extremes.ts';
import { decidedAfter } from '../../../lib/rate-limiter/order.ts';
import { ROUNDING_MS, sameEndRounded } from '../../../lib/rate-limiter/reading.ts';
import { longerThanWindow, longestAskedMs } from '../../../lib/rate-limiter/refusal-wait.ts';
import { WindowAccountant, type AccountedAnswer, type AccountedWindow } from '../../../lib/rate-limiter/window-accountant.ts';
import type { DaySegment } from '../days.ts';
import { SUMS_INPUT, type SummedKey } from '../summed.ts';
import { classOf, minuteLengthOf, RUN_SLACK_MS, withinOneMinute, type Ban, type QuotaWindow, type WindowClass, type WindowModel } from '../windows.ts';
import { outcomeOf } from '../../../lib/rate-limiter/admitted.ts';
import type { AdmittedPhase, LooseTally, Phase, WindowTally } from './result.ts';

/**
 * How far the generators' clocks may differ: workers on several machines each time their own answers. One generator
 * timed every answer on one clock: what it saw come back before it sent another was decided first, exactly; so did
 * workers that all ran on one machine (`oneMachine`: the load command started them, RunPlan.oneMachine), however many.
 */
export function generatorSkewMs(generators: number, oneMachine: boolean): number {
  return generators > 1 && !oneMachine ? 250 : 0;
}

interface Summed {
  tally: WindowTally;
  /** Its admissions the accountant counted firm: a generator's sums all come back before the slack, or none count. */
  firmAdmitted: number;
  /** How many Resets the window's sums named (two a second apart where nodes rounded one end apart). */
  resets: number;
  windowClass: WindowClass;
  /** Remaining of every admission, highest first (admitted before and after a refusal alike). */
  remaining: number[];
  /** Refusals asking for a wait longer than a window: a ban's. */
  banLike: number;
  /** The longest wait a refusal asked for (ms). */
  longestWaitMs: number;
}

/**
 * `loose`: the key's answers no window holds (QuotaWindow.unread counts those the target may have admitted);
 * `skewMs`: how far the clocks of the generators whose sums these are may differ (generatorSkewMs); `minuteAtScaleMs`:
 * one minute at the run's time scale (QuotaWindow.withinMinute: from sums, known only when every admission came back
 * within it).
 */
export function accountOfSums(asSummed: readonly WindowTally[], loose: readonly LooseTally[], plan: PlanId, startedAtEpochMs: number, skewMs: number, minuteAtScaleMs?: number): SummedKey {
  // The generators' times are epoch ms: the accountant places them against Reset as they are, and takes the sums of
  // a Reset a second from an open window's into that window as it takes answers (two nodes rounding one end apart),
  // so they go in in the order their first answers left.
  const accountant = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: RUN_SLACK_MS, epochOffsetMs: 0 });
  const parts = new Map<AccountedWindow<AccountedAnswer>, WindowTally[]>();
  for (const tally of [...asSummed].sort((a, b) => (firstOf(a, 'firstSent') ?? Infinity) - (firstOf(b, 'firstSent') ?? Infinity))) {
    const window = accountant.addSums({
      limit: tally.limit,
      reset: tally.reset,
      admitted: tally.admitted.count + tally.late.count,
      refused: tally.refused.count,
      remaining: [...tally.admitted.remaining, ...tally.late.remaining],
      firstSentAt: firstOf(tally, 'firstSent'),
      lastReceivedAt: lastOf(tally, 'lastDone'),
      firm: tally.admitted.firm === undefined ? undefined : tally.admitted.firm + (tally.late.firm ?? 0),
    });
    parts.set(window, [...(parts.get(window) ?? []), tally]);
  }
  const accounted = accountant.finish();
  // One tally a window, under the Reset its first answers named: the verdicts below read windows, not Resets.
  const tallies = accounted.map((window) => oneTally(parts.get(window)!, window.reset));
  const observedLimits = [...new Set(tallies.map((tally) => tally.limit))];
  const byWindow = new Map(tallies.map((tally) => [`${tally.limit}|${tally.reset}`, tally]));
  const tallyOf = (limit: number, reset: number): WindowTally => byWindow.get(`${limit}|${reset}`)!;

  // The shortest a minute window can be: in a window seen from its start that admitted no more than its limit, the
  // first admission still counted when the first refusal's request left.
  const seenFromStart = (tally: WindowTally): boolean => largest(valuesOf([...tally.admitted.remaining, ...tally.late.remaining])) === tally.limit - 1;
  const minuteLike = tallies.filter((tally) => classOf(tally.limit, plan, observedLimits) !== 'day' && seenFromStart(tally));
  const minuteLength = minuteLengthOf(
    minuteLike.map((tally) => {
      const counted = tally.refused.firstSent !== null && tally.admitted.count + tally.late.count <= tally.limit;
      return {
        reset: tally.reset,
        // The window's first request left no earlier than the window opened: it lasts no longer than from then to Reset.
        openedSentAt: firstOf(tally, 'firstSent') ?? tally.reset * 1000,
        firstAdmittedAt: counted ? smallest([tally.admitted.firstDone ?? Infinity, tally.late.firstDone ?? Infinity]) : undefined,
        refusedSentAt: counted ? tally.refused.firstSent! : undefined,
      };
    }),
  );
  const { estimateMs } = minuteLength;

  const summed: Summed[] = accounted.map((window) => {
    const tally = tallyOf(window.limit, window.reset);
    const windowClass = classOf(window.limit, plan, observedLimits);
    const waits = Object.entries(tally.refused.waits).map(([wait, times]) => ({ ms: wait === '-' || wait.startsWith('x:') ? 0 : Number(wait), times }));
    // The least a refusal of this window can have been asked to wait: Retry-After, or its Reset from the last refusal.
    const lastRefused = tally.refused.lastDone ?? tally.reset * 1000;
    const banLike = windowClass === 'day' ? 0 : waits.filter(({ ms }) => longerThanWindow(longestAskedMs(ms, tally.reset, lastRefused), estimateMs ?? Infinity)).reduce((sum, { times }) => sum + times, 0);
    return { tally, firmAdmitted: window.firmAdmitted, resets: window.resets.length, windowClass, remaining: valuesOf(window.fromSums ? [...tally.admitted.remaining, ...tally.late.remaining] : []), banLike, longestWaitMs: largest(waits.map(({ ms }) => ms).concat(0)) };
  });

  // Sums show the kind only by refusals: a window that refused and never admitted its refused generator again
  // behaves as a fixed window does; one that did gave something back. A run that never refused shows neither.
  const model: WindowModel = tallies.some((tally) => tally.late.count > 0) ? 'sliding' : tallies.some((tally) => tally.refused.count > 0) ? 'fixed' : 'unseen';
  const counters: Record<WindowClass, number> = { minute: 0, day: 0, other: 0 };
  const windows: QuotaWindow[] = [];
  for (const { tally, firmAdmitted, resets, windowClass, remaining, banLike } of summed) {
    const admitted = tally.admitted.count + tally.late.count;
    const refused = tally.refused.count - banLike;
    if (admitted + refused === 0) continue;
    const phases = [tally.admitted, tally.refused, tally.late].filter((phase) => phase.count > 0);
    const fromStart = remaining.length > 0 && largest(remaining) === tally.limit - 1;
    const firstSentAt = smallest(phases.map((phase) => phase.firstSent!));
    const lastDoneAt = largest(phases.map((phase) => phase.lastDone!));
    const lastAdmittedDone = largest([tally.admitted, tally.late].flatMap((phase) => (phase.lastDone === null ? [] : [phase.lastDone])).concat(-Infinity));
    const allWithinMinute = withinOneMinute(minuteAtScaleMs, resets) && lastAdmittedDone + skewMs < firstSentAt + minuteAtScaleMs;
    windows.push({
      number: ++counters[windowClass],
      windowClass,
      limit: tally.limit,
      reset: tally.reset,
      firstSentAt: firstSentAt - startedAtEpochMs,
      lastSentAt: largest(phases.map((phase) => phase.lastSent!)) - startedAtEpochMs,
      firstDoneAt: smallest(phases.map((phase) => phase.firstDone!)) - startedAtEpochMs,
      lastDoneAt: lastDoneAt - startedAtEpochMs,
      admitted,
      firmAdmitted,
      refused,
      unread: unreadWhile(loose, firstSentAt - skewMs, lastDoneAt + skewMs),
      remaining,
      earlyRemaining: undefined,
      seenFromStart: fromStart,
      admittedBeforeFirstRefusal: undefined,
      // All the window admitted: the most the target can have admitted before it first refused, in any order.
      admittedBeforeRefusing: refused > 0 ? admitted : undefined,
      admittedEarly: undefined,
      admittedWhenEmpty: Math.max(0, remaining.filter((value) => value === 0).length - 1),
      merged: (estimateMs ?? Infinity) < 1_000 - 100 && admitted > tally.limit && remaining.filter((value) => value === tally.limit - 1).length > 1,
      fromSums: true,
      refusalsSaidLeft: valuesOf(tally.refused.remaining ?? [])[0],
      withinMinute: allWithinMinute ? { admitted, remaining } : undefined,
    });
  }

  const undocumentedLimits = new Map<number, number>();
  for (const { tally, windowClass } of summed) {
    const admitted = tally.admitted.count + tally.late.count;
    if (windowClass === 'other' && admitted > 0) undocumentedLimits.set(tally.limit, (undocumentedLimits.get(tally.limit) ?? 0) + admitted);
  }

  return {
    account: {
      plan,
      windows,
      model,
      minuteLength,
      bans: bansOf(summed, tallies, startedAtEpochMs),
      banLike: new Set(),
      undocumentedLimits,
      limiter: { kind: 'unknown', stacked: false, evidence: [`${SUMS_INPUT}, and the kind of limiter shows in answers decided one after the other`] },
      refillWindowMs: undefined,
      shortestBucketWindowMs: undefined,
    },
    days: daysOf(summed, loose, plan, startedAtEpochMs),
    retries: retriesOf(summed),
    resetMovedBack: resetMovedBack(asSummed, startedAtEpochMs, skewMs),
    sentBetween: tallies.flatMap((tally) =>
      (['admitted', 'late', 'refused'] as const)
        .map((name) => ({ outcome: name === 'refused' ? ('refused' as const) : ('admitted' as const), phase: tally[name] }))
        .filter(({ phase }) => phase.count > 0)
        .map(({ outcome, phase }) => ({ outcome, count: phase.count, from: phase.firstSent! - startedAtEpochMs, to: phase.lastSent! - startedAtEpochMs })),
    ),
  };
}

/**
 * How many of the key's loose answers the target may have admitted between `from` and `to` (epoch ms): those with no
 * answer or no X-RateLimit headers, refusals aside, of every tally whose requests overlap that span. A tally is
 * counted whole, whatever part of it fell within the span (its spread is not summed): an upper bound.
 */
function unreadWhile(loose: readonly LooseTally[], from: number, to: number): number {
  const unread = loose.filter((tally) => tally.count > 0 && tally.firstSent !== null && outcomeOf(tally.status) !== 'refused');
  return unread.filter((tally) => tally.firstSent! <= to && (tally.lastDone ?? Infinity) >= from).reduce((sum, tally) => sum + tally.count, 0);
}

/** The tallies of one window (a Reset and one a second apart, as two nodes rounded its end) as one, under `reset`. */
function oneTally(parts: readonly WindowTally[], reset: number): WindowTally {
  if (parts.length === 1) return parts[0]!;
  const refused = joined(parts.map((part) => part.refused));
  const waits: Record<string, number> = {};
  for (const part of parts) for (const [wait, times] of Object.entries(part.refused.waits)) waits[wait] = (waits[wait] ?? 0) + times;
  const refusalsSaid = parts.flatMap((part) => part.refused.remaining ?? []);
  return {
    key: parts[0]!.key,
    limit: parts[0]!.limit,
    reset,
    admitted: { ...joined(parts.map((part) => part.admitted)), remaining: parts.flatMap((part) => part.admitted.remaining) },
    late: { ...joined(parts.map((part) => part.late)), remaining: parts.flatMap((part) => part.late.remaining) },
    refused: { ...refused, waits, ...(parts.some((part) => part.refused.remaining) ? { remaining: refusalsSaid } : {}) },
  };
}

/** Answers of one kind in several tallies, as one phase: counts and sums added, first and last times the extremes. */
function joined(phases: readonly Phase[]): Phase {
  const times = (field: 'firstSent' | 'lastSent' | 'firstDone' | 'lastDone'): number[] => phases.flatMap((phase) => (phase[field] === null ? [] : [phase[field]]));
  const first = (field: 'firstSent' | 'firstDone'): number | null => (times(field).length ? smallest(times(field)) : null);
  const last = (field: 'lastSent' | 'lastDone'): number | null => (times(field).length ? largest(times(field)) : null);
  const statuses: Record<string, number> = {};
  for (const phase of phases) for (const [status, times] of Object.entries(phase.statuses)) statuses[status] = (statuses[status] ?? 0) + times;
  return {
    count: phases.reduce((sum, phase) => sum + phase.count, 0),
    firstSent: first('firstSent'),
    lastSent: last('lastSent'),
    firstDone: first('firstDone'),
    lastDone: last('lastDone'),
    retries: phases.reduce((sum, phase) => sum + phase.retries, 0),
    statuses,
  };
}

function firstOf(tally: WindowTally, field: 'firstSent'): number | null {
  const times = [tally.admitted, tally.refused, tally.late].flatMap((phase) => (phase[field] === null ? [] : [phase[field]]));
  return times.length ? smallest(times) : null;
}

function lastOf(tally: WindowTally, field: 'lastDone'): number | null {
  const times = [tally.admitted, tally.refused, tally.late].flatMap((phase) => (phase[field] === null ? [] : [phase[field]]));
  return times.length ? largest(times) : null;
}

/** Remaining values of runs [highest, lowest, times], highest first. */
export function valuesOf(runs: AdmittedPhase['remaining']): number[] {
  const values: number[] = [];
  for (const [high, low, times] of runs) for (let value = high; value >= low; value--) for (let i = 0; i < times; i++) values.push(value);
  return values.sort((a, b) => b - a);
}

/**
 * Reset moved back: the same Limit, an earlier Reset named by an admission whose request left after an admission
 * naming a later Reset came back (by more than the generators' clocks may differ, `skewMs`). Admissions only, as
 * between answers one after the other: a refusal's Reset may say when a ban ends.
 */
function resetMovedBack(tallies: readonly WindowTally[], start: number, skewMs: number): string[] {
  const moves: string[] = [];
  const admitted = (tally: WindowTally): Phase[] => [tally.admitted, tally.late].filter((phase) => phase.count > 0);
  for (const later of tallies) {
    const laterDone = admitted(later).length ? smallest(admitted(later).map((phase) => phase.firstDone!)) : null;
    if (laterDone === null) continue;
    for (const earlier of tallies) {
      // A second apart, two nodes may have rounded one end apart (reading.ts): only a larger move back moved.
      if (earlier.limit !== later.limit || earlier.reset >= later.reset || sameEndRounded(earlier.reset, later.reset)) continue;
      const earlierSent = admitted(earlier).length ? largest(admitted(earlier).map((phase) => phase.lastSent!)) : null;
      if (earlierSent === null || decidedAfter({ receivedAt: laterDone }, { sentAt: earlierSent }, skewMs) !== 'after') continue;
      moves.push(`an answer ${seconds(laterDone - start)} into the run named Reset ${later.reset}; a request sent ${seconds(earlierSent - start)} into the run was answered with the earlier Reset ${earlier.reset} (Limit ${later.limit}): it moved back`);
    }
  }
  return moves;
}

function bansOf(summed: readonly Summed[], tallies: readonly WindowTally[], start: number): Ban[] {
  return summed
    .filter(({ banLike }) => banLike > 0)
    .map(({ tally, banLike, longestWaitMs }) => {
      const lastRefused = tally.refused.lastDone ?? 0;
      // The first admission whose request left after this window's last refusal came back: the ban was over by then.
      const after = tallies.flatMap((other) => [other.admitted, other.late]).filter((phase) => phase.firstSent !== null && decidedAfter({ receivedAt: lastRefused }, { sentAt: phase.firstSent }, 0) === 'after');
      const endedAt = after.length ? smallest(after.map((phase) => phase.firstDone!)) - start : undefined;
      return { startedAt: tally.refused.firstDone! - start, endedAt, announcedMs: longestWaitMs, refusals: banLike, refusalsBefore: 0 };
    });
}

function retriesOf(summed: readonly Summed[]): SummedKey['retries'] {
  const retries = { sent: 0, refused: 0, refusedByDay: 0, refusedInBan: 0 };
  for (const { tally, windowClass, banLike } of summed) {
    retries.sent += tally.admitted.retries + tally.late.retries + tally.refused.retries;
    if (windowClass === 'day') retries.refusedByDay += tally.refused.retries;
    else if (banLike > 0) retries.refusedInBan += tally.refused.retries;
    else retries.refused += tally.refused.retries;
  }
  return retries;
}

/**
 * The day, from sums: everything admitted is before the day's first refusal, or after it, only when no window's
 * admissions straddle that refusal; and no day-class Reset passed during the run. Otherwise which admissions came
 * before the cutoff needs the order of answers: undefined.
 */
function daysOf(summed: readonly Summed[], loose: readonly LooseTally[], plan: PlanId, start: number): DaySegment[] | undefined {
  if (!plans[plan].documented && summed.length === 0) return [];
  const admittedPhases = summed.flatMap(({ tally }) => [tally.admitted, tally.late]).filter((phase) => phase.count > 0);
  const dayWindows = summed.filter(({ windowClass }) => windowClass === 'day');
  const dayReset = dayWindows.length ? largest(dayWindows.map(({ tally }) => tally.reset)) : undefined;
  const lastDone = largest(admittedPhases.map((phase) => phase.lastDone!).concat(0));
  if (dayReset !== undefined && lastDone > dayReset * 1000 + ROUNDING_MS) return undefined;
  const firstSent = smallest(summed.flatMap(({ tally }) => [tally.admitted, tally.refused, tally.late]).filter((phase) => phase.count > 0).map((phase) => phase.firstSent!));
  const total = admittedPhases.reduce((sum, phase) => sum + phase.count, 0);
  const day: DaySegment = { number: 1, startedAt: Number.isFinite(firstSent) ? firstSent - start : 0, admitted: total, cutoff: undefined, admittedAfterCutoff: 0, dayReset };
  const refusedForDay = dayWindows.filter(({ tally }) => tally.refused.count > 0).map(({ tally }) => tally);
  if (refusedForDay.length === 0) return [day];
  const cutoffAt = smallest(refusedForDay.map((tally) => tally.refused.firstDone!));
  const cutoffSent = smallest(refusedForDay.map((tally) => tally.refused.firstSent!));
  const first = refusedForDay.find((tally) => tally.refused.firstDone === cutoffAt)!;
  // Decided before every refusal for the day: answered before the first of them left; after: sent once it came back.
  const before = admittedPhases.filter((phase) => decidedAfter({ receivedAt: phase.lastDone! }, { sentAt: cutoffSent }, 0) === 'after');
  const after = admittedPhases.filter((phase) => decidedAfter({ receivedAt: cutoffAt }, { sentAt: phase.firstSent! }, 0) === 'after');
  if (before.length + after.length < admittedPhases.length) return undefined;
  const wait = Object.keys(first.refused.waits).find((bucket) => bucket !== '-' && !bucket.startsWith('x:'));
  // Admissions after the cutoff came before the day could have ended: a day-class Reset had not come.
  const admittedBefore = before.reduce((sum, phase) => sum + phase.count, 0);
  return [{ ...day, admitted: admittedBefore, cutoff: { at: cutoffAt - start, admittedBefore, unreadBefore: unreadWhile(loose, -Infinity, cutoffAt), retryAfterMs: wait === undefined ? undefined : Number(wait), reset: first.reset }, admittedAfterCutoff: total - admittedBefore }];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

