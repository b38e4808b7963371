/**
 * Which kind of limiter a key's readings show (kinds.ts), with the readings that showed it: reported under
 * RL-GAP-2, and used to judge each header by what it means under that kind. Only what the readings prove counts:
 * a sequence that never saw a window end, a token come back or a Reset move is "unknown".
 */
import type { RecognisedLimiter, LimiterKind } from './kinds.ts';
import { decidedAfter } from './order.ts';
import { isAdmitted, mayHaveEnded, sameEndRounded, type Reading } from './reading.ts';
import { fullAtReset } from './refill.ts';
import { stepBetween } from './steps.ts';

export interface RecogniseOptions {
  /** The window a Limit's quota is counted over (ms, target time), or undefined for one the run cannot place. */
  windowOf: (limit: number) => number | undefined;
  /** The Limit of the shorter (minute) window, when known: only its readings say what kind the limiter is. */
  minuteLimit?: number;
  /** The Limit of the longer (day) window, when known: seen beside the minute's, the limiters are stacked. */
  dayLimit?: number;
  /**
   * Requests the target may have admitted whose Remaining the client never read (a timeout, a connection reset, a
   * request sent again, a 5xx, an admission without the X-RateLimit headers), times in epoch ms: one may have taken a
   * Remaining value between two answers, so no pair around it tells a step.
   */
  lost?: ReadonlyArray<Pick<Reading, 'sentAt' | 'receivedAt'>>;
}

/** Readings of one key. */
export function recogniseLimiter(readings: readonly Reading[], { windowOf, minuteLimit, dayLimit, lost = [] }: RecogniseOptions): RecognisedLimiter {
  const limits = new Set(readings.flatMap((reading) => (reading.limit === undefined ? [] : [reading.limit])));
  const stacked = minuteLimit !== undefined && dayLimit !== undefined && limits.has(minuteLimit) && limits.has(dayLimit);
  const evidence: string[] = [];
  if (stacked) evidence.push(`answers named both the minute's limit (${minuteLimit}) and the day's (${dayLimit}) in X-RateLimit-Limit: two limiters, each naming itself when it binds`);
  const sorted = [...readings].sort((a, b) => a.sentAt - b.sentAt);
  const admittedOf = (limit: number | undefined): Reading[] => sorted.filter((reading) => isAdmitted(reading) && reading.limit === limit && reading.remaining !== undefined && reading.reset !== undefined);
  // The minute's answers tell the kind best; where admitted answers name only the day's window, those.
  const shorter = minuteLimit ?? smallestOf(limits);
  const told = admittedOf(shorter).length >= 2 || dayLimit === undefined ? shorter : dayLimit;
  const windowMs = told === undefined ? undefined : windowOf(told);
  const admitted = admittedOf(told);
  if (windowMs === undefined || admitted.length < 2) return { kind: 'unknown', stacked, evidence: [...evidence, 'too few admitted answers of one window to tell its kind'] };
  const found = kindOf(admitted, windowMs, new LostAnswers(lost));
  return { kind: found.kind, stacked, evidence: [...evidence, ...found.evidence], ...(found.unordered ? { unordered: true } : {}) };
}

/** What the admitted answers tell of the limiter's kind. */
type KindFound = Pick<RecognisedLimiter, 'kind' | 'evidence' | 'unordered'>;

function kindOf(admitted: readonly Reading[], windowMs: number, lost: LostAnswers): KindFound {
  // Requests in flight at once may have been decided in either order: only one after another, with nothing else in
  // flight from the first's leaving to the second's answer, tell a story (another may have been decided between).
  const pairs: Array<readonly [Reading, Reading]> = [];
  let blockedByLost = 0;
  const pairUnlessLost = (pair: readonly [Reading, Reading]): void => {
    if (lost.mayLieBetween(...pair)) blockedByLost++;
    else pairs.push(pair);
  };
  let doneBefore = -Infinity;
  for (let index = 0; index + 1 < admitted.length; index++) {
    const [previous, next, after] = [admitted[index]!, admitted[index + 1]!, admitted[index + 2]];
    const nextAlone = after === undefined || decidedAfter(next, after, 0) !== 'unknown';
    const alone = doneBefore <= previous.sentAt && nextAlone;
    doneBefore = Math.max(doneBefore, previous.receivedAt);
    if (alone && decidedAfter(previous, next, 0) !== 'unknown') {
      pairUnlessLost([previous, next]);
    } else if (nextAlone && doneBefore <= next.sentAt) {
      const afterBurst = lastOfBurst(admitted.slice(0, index + 1), next, windowMs);
      if (afterBurst) pairUnlessLost(afterBurst);
    }
  }
  const found: KindFound =
    pairs.length === 0 ? { kind: 'unknown', evidence: ['no two admitted answers were decided one after the other, with nothing else in flight, to show the kind'], unordered: true } : kindOfPairs(pairs, windowMs);
  if (found.kind !== 'unknown' || blockedByLost === 0) return found;
  // Why pairs that might have told the kind did not: a gateway's timeouts or 5xx, not the limiter, hid it.
  const lostWords = `${blockedByLost} pair${blockedByLost === 1 ? ' of answers that might have shown it had' : 's of answers that might have shown it each had'} a request whose answer was lost (a timeout, a reset connection, a 5xx) in flight between them`;
  return { ...found, evidence: [...found.evidence, lostWords] };
}

/** Requests whose answers were lost, asked whether one may have been decided between two answers. */
class LostAnswers {
  private readonly sentAt: number[];
  /** The latest any lost request came back by, of those sent up to each, in the order they were sent. */
  private readonly latestDoneBy: number[];

  constructor(lost: ReadonlyArray<Pick<Reading, 'sentAt' | 'receivedAt'>>) {
    const sorted = [...lost].sort((a, b) => a.sentAt - b.sentAt);
    this.sentAt = sorted.map((request) => request.sentAt);
    let latest = -Infinity;
    this.latestDoneBy = sorted.map((request) => (latest = Math.max(latest, request.receivedAt)));
  }

  /** Whether a lost request was in flight at some time from the first's leaving to the second's answer. */
  mayLieBetween(first: Reading, second: Reading): boolean {
    let low = 0;
    let high = this.sentAt.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sentAt[middle]! < second.receivedAt) low = middle + 1;
      else high = middle;
    }
    return low > 0 && this.latestDoneBy[low - 1]! > first.sentAt;
  }
}

/**
 * A request sent alone once every answer before it had come back (after a burst, as the suite's request after a
 * 429's wait): it was decided after all of them, but which of the burst was decided last, just before it, the times
 * cannot say. Any answer of the burst still in flight when the burst's last request left may have been. The pair tells
 * the kind only when every such candidate, taken as the one before, tells the same kind; it is then read from the one
 * with the least left, as a window counts down.
 */
function lastOfBurst(before: readonly Reading[], next: Reading, windowMs: number): readonly [Reading, Reading] | undefined {
  const lastSentAt = before.at(-1)!.sentAt;
  const candidates = before.filter((reading, index) => index === before.length - 1 || reading.receivedAt > lastSentAt);
  const kinds = new Set(candidates.map((candidate) => kindOfPairs([[candidate, next]], windowMs).kind));
  if (kinds.size !== 1 || kinds.has('unknown')) return undefined;
  const least = candidates.reduce((lowest, candidate) => (candidate.remaining! < lowest.remaining! ? candidate : lowest));
  return [least, next];
}

/**
 * The kind that admitted answers of one Limit show, each pair one decided after the other (the second sent once the
 * first was in): what a stream judged in bounded memory keeps of them (pair-sample.ts) tells the kind as well.
 */
export function kindOfPairs(pairs: ReadonlyArray<readonly [Reading, Reading]>, windowMs: number): { kind: LimiterKind; evidence: string[] } {
  let refilling: string | undefined;
  let refilledAtReset: string | undefined;
  let partlyAtReset: string | undefined;
  let risingWithin: string | undefined;
  let moved = false;
  const resets = new Set<number>();
  // A bucket's Reset never goes back; a fleet's goes back and forth by the second its nodes round one end apart by.
  // Where it went back by that second, a second forward is that rounding too, not a token spent.
  const roundedApart = pairs.some(([previous, next]) => next.reset! < previous.reset! && sameEndRounded(next.reset!, previous.reset!));
  for (const [previous, next] of pairs) {
    const step = stepBetween(previous, next, windowMs);
    resets.add(previous.reset!);
    if (step === 'reset-moved') moved = true;
    const change = `Remaining ${previous.remaining} → ${next.remaining}, Reset ${previous.reset} → ${next.reset}`;
    const spent = next.reset! > previous.reset! && !(roundedApart && sameEndRounded(next.reset!, previous.reset!)) && next.remaining! <= previous.remaining! && fullAtReset(previous, windowMs) && fullAtReset(next, windowMs);
    if (spent) refilling ??= `${change}: Reset moved forward as tokens were spent, each time to when a bucket of ${next.limit} would be full again`;
    // Decided between its sending and its answer, as stepBetween reads it: Reset may have come if it may by the answer.
    const mayHaveCome = mayHaveEnded(previous.reset!, next.receivedAt);
    if (step === 'same-window' && next.remaining! > previous.remaining! && !mayHaveCome) risingWithin ??= `${change}: Remaining rose before Reset`;
    if (step === 'new-window' && !spent && next.reset! > previous.reset! && mayHaveCome) {
      if (next.remaining === next.limit! - 1) refilledAtReset ??= `${change}: the whole quota came back once Reset had come (as a fixed window's does, or a sliding log's whose requests all left together)`;
      else partlyAtReset ??= `${change}: only part of the quota came back once Reset had come`;
    }
  }
  if (moved) return { kind: 'unknown', evidence: ['X-RateLimit-Reset moved in a way no kind of limiter explains (RL-7)'] };
  if (refilling) return { kind: 'bucket', evidence: [refilling] };
  if (risingWithin) return { kind: 'sliding-counter', evidence: [risingWithin] };
  if (partlyAtReset) return { kind: 'sliding-log', evidence: [partlyAtReset] };
  if (refilledAtReset) {
    const onMinutes = [...resets].every((reset) => (reset * 1000) % windowMs === 0);
    const alignment = onMinutes ? `every Reset fell on a whole window of the clock (${[...resets].slice(0, 3).join(', ')})` : 'its windows are not aligned to the clock';
    return { kind: onMinutes ? 'fixed-clock' : 'fixed-first-use', evidence: [refilledAtReset, alignment] };
  }
  return { kind: 'unknown', evidence: ['no window ended, and no token came back, while the run watched'] };
}

function smallestOf(values: ReadonlySet<number>): number | undefined {
  return values.size === 0 ? undefined : Math.min(...values);
}
