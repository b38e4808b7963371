/**
 * The daily quota, followed through the run. A day ends, for the client, when the target refuses with the
 * per-day limit in X-RateLimit-Limit (the cutoff) and later admits again once the time it gave has passed.
 * That time comes from the cutoff's Retry-After measured on the client's own clock (no clock skew with the
 * target can make it wrong), or from its Reset when Retry-After is missing.
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { lostAnswer } from '../../lib/rate-limiter/account.ts';
import { ROUNDING_MS } from '../../lib/rate-limiter/reading.ts';
import type { Observation } from './observation.ts';
import { classOf } from './windows.ts';

export interface DaySegment {
  /** 1-based. */
  number: number;
  startedAt: number;
  admitted: number;
  /**
   * Set once the target refused for the day. unreadBefore: requests of the day sent before the cutoff came back whose
   * answer was never read (a timeout, a connection error, a 5xx): the target may have admitted each before it.
   */
  cutoff: { at: number; admittedBefore: number; unreadBefore: number; retryAfterMs: number | undefined; reset: number } | undefined;
  /** Admissions after the cutoff, before the day could have ended. */
  admittedAfterCutoff: number;
  /** A day-class X-RateLimit-Reset seen in this day (Unix seconds). */
  dayReset: number | undefined;
}

export function followDays(observations: readonly Observation[], plan: PlanId, startedAtEpochMs: number, banLike: ReadonlySet<number>): DaySegment[] {
  if (!plans[plan].documented && !observations.some((o) => o.limit !== undefined)) return [];
  const observedLimits = [...new Set(observations.flatMap((o) => (o.limit === undefined ? [] : [o.limit])))];
  const first = observations[0];
  const days: DaySegment[] = [newDay(1, first?.sentAt ?? 0)];
  /** Earliest Unix ms at which the current day can have ended, once it was cut off. */
  let endsNoEarlierThan = Infinity;

  observations.forEach((observation, index) => {
    const day = days.at(-1) as DaySegment;
    const windowClass = observation.limit === undefined ? undefined : classOf(observation.limit, plan, observedLimits);
    if (windowClass === 'day' && observation.reset !== undefined && !banLike.has(index)) day.dayReset = Math.max(day.dayReset ?? 0, observation.reset);
    const doneEpoch = startedAtEpochMs + observation.doneAt;
    if (observation.outcome === 'admitted') {
      if (day.cutoff) {
        if (doneEpoch >= endsNoEarlierThan) {
          days.push({ ...newDay(days.length + 1, observation.sentAt), admitted: 1 });
          endsNoEarlierThan = Infinity;
        } else day.admittedAfterCutoff++;
      } else if (day.dayReset !== undefined && doneEpoch > day.dayReset * 1000 + ROUNDING_MS) {
        days.push({ ...newDay(days.length + 1, observation.sentAt), admitted: 1 });
      } else day.admitted++;
      return;
    }
    if (observation.outcome !== 'refused' || windowClass !== 'day' || banLike.has(index) || observation.reset === undefined) return;
    day.cutoff ??= { at: observation.doneAt, admittedBefore: day.admitted, unreadBefore: unreadBetween(observations, day.startedAt, observation.doneAt), retryAfterMs: observation.retryAfterMs, reset: observation.reset };
    // The day ends no earlier than the latest of the limits the refusals give (sent time + Retry-After, minus rounding).
    const bound =
      observation.retryAfterMs !== undefined ? startedAtEpochMs + observation.sentAt + observation.retryAfterMs - ROUNDING_MS : observation.reset * 1000 - 2 * ROUNDING_MS;
    endsNoEarlierThan = endsNoEarlierThan === Infinity ? bound : Math.max(endsNoEarlierThan, bound);
  });
  return days;
}

/**
 * Requests sent from `from` to `to` (ms into the run) whose answers were lost: the target may have admitted any of them.
 * An admission without the X-RateLimit headers is not among them: a day counts it as admitted already.
 */
function unreadBetween(observations: readonly Observation[], from: number, to: number): number {
  return observations.filter((o) => lostAnswer(o) && o.sentAt >= from && o.sentAt <= to).length;
}

function newDay(number: number, startedAt: number): DaySegment {
  return { number, startedAt, admitted: 0, cutoff: undefined, admittedAfterCutoff: 0, dayReset: undefined };
}
