/**
 * A key's rate limiter, judged from whatever part of its traffic a capture holds, through the model of a rate
 * limiter (lib/rate-limiter): readings, the steps between them, refill, and the limiter's kind. Windows are told
 * apart as the model tells them: by X-RateLimit-Limit (which quota binds, classOf) and X-RateLimit-Reset (when it
 * ends). Partial traffic is the normal case (sampling, several proxies, other clients on the key), so only what
 * holds whatever was not seen fails:
 *
 * - Reset never moves back: a window's end, a sliding log's oldest request leaving, a bucket's being full again
 *   only ever come later. An answer decided after another (its request left once that answer was in) that names
 *   an earlier Reset for the same Limit contradicts it (RL-7, stepBetween), at once. A Reset moved forward before
 *   the one it replaces came is judged once the capture ended, by the window a bucket would need (refill.ts).
 * - A 429 whose own Remaining says requests are left in the window it names (RL-6): requests the capture does not
 *   hold would only have lowered it, so nothing explains a refusal that says it. Unless it asks for a wait longer
 *   than a window: a ban or a spent day, perhaps from another layer than the limiter whose figures it shows.
 * - No more than the limit are admitted under one Reset, among answers that came more than `slackMs` before it
 *   (the plan's quota): no kind of limiter gives anything back under one Reset so far ahead (firmlyPastLimit).
 * - Remaining, between two answers decided one after the other, by the kind the key's traffic shows
 *   (recognise.ts): a fixed window gives nothing back before Reset, so the later must be lower (unless a request
 *   was admitted after one refused under the same Reset: quota came back); a bucket may rise by no more than comes
 *   back between them (remainingStepProblem); other kinds, and traffic that does not show one, are not judged so. Requests the capture does
 *   not hold only lower it, so these hold on partial traffic; that it fell by exactly one does not, and is not
 *   judged. The kind is known only once the capture ended, so these are judged then, on the first candidates.
 *
 * Answers are grouped into windows by the one window accountant (window-accountant.ts), which puts a capture's
 * answers back in the order they came back (within its buffer) before anything here sees them, and closes a window
 * once no answer still to come can be in it. "Decided one after the other" is order.ts's: within the clock skew two
 * clocks may have swapped a pair, so a pair that close fails only where the swapped order would fail too; an
 * answer without its request's time (no duration) is never the later of a pair.
 * What is kept per key is its open windows, the latest answer per Limit, a bounded sample of pairs (pair-sample.ts)
 * and a few candidates: never the exchanges.
 */
import { classOf, type WindowClass } from '../../lib/rate-limiter/account.ts';
import { KIND_MEANING, type LimiterKind } from '../../lib/rate-limiter/kinds.ts';
import { PairSample } from '../../lib/rate-limiter/pair-sample.ts';
import { decidedAfter } from '../../lib/rate-limiter/order.ts';
import { isAdmitted, mayHaveEnded, MINUTE_WINDOW_MS, RESET_RESOLUTION_S, sameEndRounded, type Reading } from '../../lib/rate-limiter/reading.ts';
import { documentedWindowMs } from '../../lib/rate-limiter/window-of-limit.ts';
import { kindOfPairs } from '../../lib/rate-limiter/recognise.ts';
import { longerThanWindow, longestAskedMs } from '../../lib/rate-limiter/refusal-wait.ts';
import { remainingStepProblem, resetMovedText, resetStepProblem } from '../../lib/rate-limiter/steps.ts';
import { firmlyPastLimit, WindowAccountant, wholeWindow, type AccountedAnswer, type AccountedWindow } from '../../lib/rate-limiter/window-accountant.ts';
import type { PlanId } from '../../lib/plans.ts';
import { AdmissionsInASpan } from './admissions-in-a-span.ts';
import type { Contradiction } from './contradiction.ts';

/**
 * One answer that carried all three headers, `id` its position in the capture; `sentAt` undefined when the capture
 * does not say when its request left (the reading then takes it to have left when it came back).
 */
export interface Answer extends AccountedAnswer {
  remaining: number;
  /** What a 429's Retry-After asked for, in ms, when it said. */
  retryAfterMs?: number | undefined;
  reading: Reading & { limit: number; remaining: number; reset: number };
}

export interface KeyWindowsOptions {
  /** Answers this close to a Reset may have come after it ended (the capture's clock against the target's). */
  slackMs: number;
  /** How far two clocks of the capture may differ (--clock-skew). */
  clockSkewMs: number;
  /** How far back in time the capture may go and still be put in order (window-accountant.ts). */
  reorderMs: number;
}

export interface KeyWindowsListeners {
  found(contradiction: Contradiction): void;
  /** What a rule could not be judged on, and why: the order of answers, or the rounding, would decide it. */
  unchecked(check: 'remaining-steps' | 'reset-stable', reason: string): void;
  closed(window: ClosedWindow): void;
}

export interface ClosedWindow {
  windowClass: WindowClass;
  limit: number;
  /** Admitted answers that came while nothing could refill: what the checks above were judged on. */
  firmAdmissions: number;
  /**
   * Every admission of the window is in the capture: its Remaining values run from limit - 1 down with none
   * skipped. Otherwise the target's own headers say requests this capture does not hold took from it.
   */
  whole: boolean;
}

/** What one Limit's answers showed of the limiter behind it, and what of RL-6 it left unjudged. */
export interface LimiterSeen {
  limit: number;
  kind: LimiterKind;
  evidence: string[];
  /** What of RL-6's countdown this kind leaves unjudged, and why (nothing for fixed windows: whole ones are judged whole). */
  unjudged: string | undefined;
}

type Pair = readonly [Answer, Answer];

/** Per Limit: the latest admitted answer, the sample the kind is told from, and the candidates judged by it. */
interface LimitTrack {
  latest: Answer;
  sample: PairSample;
  /** The first pair under one Reset, well before it, whose Remaining did not fall. */
  notFallen: Pair | undefined;
  /** The pair whose Remaining rose the most for the time between them: the one a bucket explains least. */
  steepest: { pair: Pair; slope: number } | undefined;
  /** The first few pairs whose Reset moved forward well before the one it replaced. */
  movedForward: Pair[];
  /** The Reset the current window first named: one end rounded apart stays within a second of it, a drift does not. */
  anchor: number;
  /** The latest pair decided one after the other: its second replaced by an answer in flight with it that was decided first. */
  lastPair?: Pair;
  /**
   * The first two admissions of one window, both well before its Reset, that said the same Remaining: in whichever
   * order they were decided, the later did not lower it (requests the capture does not hold would have lowered it more).
   */
  repeated?: { remaining: number; reset: number; exchanges: [number, number] };
  /** The readings of the pair last added to the sample, as told (addToSample): what withdrawing it takes back. */
  told?: readonly [Reading, Reading];
  /** Per Reset of the last few windows, its admitted answer that said the most was left: the first it decided. */
  firstOf: Map<number, Reading>;
}

/** Evidence of one contradiction: this many exchanges are enough to follow it. */
const MAX_EXCHANGES = 6;
const MAX_MOVED = 4;
/**
 * The fewest left a whole window's last admission must have said for its refusal to prove a promise broken: one could
 * be a last admission the capture lost (a sampled log), two in a row at the very end of a window otherwise whole hardly.
 */
const LEAST_PROMISED = 2;
/** Windows whose first answer is kept per Limit: enough for the pairs the sample keeps across a Reset. */
const FIRST_OF_KEPT = 64;
/**
 * Kinds whose Remaining must fall between answers under one Reset. A sliding log's must too, but from outside it
 * looks like a sliding counter that has not yet been seen to rise (both give part of the quota back at Reset), and a
 * counter may keep Remaining still: so only fixed windows, whose whole quota came back at every Reset seen.
 */
const FIXED: ReadonlySet<LimiterKind> = new Set(['fixed-clock', 'fixed-first-use']);
/** What of RL-6's countdown each other kind leaves unjudged, and why. */
const COUNTDOWN_UNJUDGED: Readonly<Record<Exclude<LimiterKind, 'fixed-clock' | 'fixed-first-use'>, string>> = {
  bucket: "that a token bucket's Remaining fell by no more than one: requests the capture does not hold may have spent its tokens too; only that it rose no faster than tokens come back is judged",
  'sliding-counter': 'the countdown of a sliding counter: it may keep Remaining still or raise it before Reset, at a rate traffic does not show',
  'sliding-log': 'the countdown where only part of the quota came back at Reset: a sliding log, or a sliding counter not seen to raise Remaining, which may keep it still',
  unknown: "the countdown where the traffic does not show the limiter's kind (no window seen to end, no token to come back): a bucket or a sliding counter may keep Remaining still",
};
/** Why steps between answers the capture does not order were not judged. */
const UNTIMED = "steps between answers without their request's time (a log without duration): which the target decided first is not known";
const IN_FLIGHT_APART = 'Resets more than a second apart on requests in flight together: in one order the Reset moved back, in the other forward, and which the target decided first is not known';
/** A fixed window that gave quota back before Reset is not judged as one. */
const GIVEN_BACK_UNJUDGED = 'the countdown of fixed windows that admitted a request after refusing one under the same Reset: quota came back before it';

export class KeyWindows {
  private readonly accountant: WindowAccountant<Answer>;
  private readonly tracks = new Map<number, LimitTrack>();
  private readonly limitsSeen: number[] = [];
  /** Per Limit: the latest refusal, and whether an admission under its Reset followed it (quota given back). */
  private readonly lastRefusal = new Map<number, Answer>();
  private readonly givenBack = new Map<number, string>();
  /** Per window, the first refusal decided after an admission of it that said some were left (judged once it closed). */
  private readonly promises = new WeakMap<AccountedWindow<Answer>, readonly [Answer, Answer]>();
  /** Limits whose refusal already proved an overstated Remaining: one is enough. */
  private readonly overstated = new Set<number>();
  /** Per Limit, its admissions judged as a set where the capture cannot order them (admissions-in-a-span.ts). */
  private readonly spans = new Map<number, AdmissionsInASpan>();
  private readonly slackMs: number;
  private readonly clockSkewMs: number;

  constructor(
    private readonly plan: PlanId | undefined,
    private readonly options: KeyWindowsOptions,
    private readonly listeners: KeyWindowsListeners,
  ) {
    this.slackMs = options.slackMs;
    this.clockSkewMs = options.clockSkewMs;
    this.accountant = new WindowAccountant<Answer>(
      { order: 'time', reorderMs: options.reorderMs, slackMs: options.slackMs, epochOffsetMs: 0 },
      { released: (answer, window) => this.released(answer, window), closed: (window) => {
          this.promisedMore(window);
          listeners.closed(this.summary(window));
        } },
    );
  }

  /** Takes one answer that carried all three headers; throws OutOfOrderAnswer when it goes back beyond the buffer. */
  add(answer: Answer): void {
    this.accountant.add(answer);
    if (answer.outcome === 'admitted') this.spanOf(answer.limit).add(answer);
  }

  private spanOf(limit: number): AdmissionsInASpan {
    let span = this.spans.get(limit);
    if (!span) {
      span = new AdmissionsInASpan(limit, this.options, this.listeners.found);
      this.spans.set(limit, span);
    }
    return span;
  }

  /**
   * The capture ended: every window closes, and each Limit's answers are judged by the kind of limiter they show;
   * what that judges is reported as found, the kind returned.
   */
  finish(): LimiterSeen[] {
    this.accountant.finish();
    for (const span of this.spans.values()) span.finish();
    return [...this.tracks].map(([limit, track]) => this.judgeLimit(limit, track, this.listeners.found));
  }

  /** An answer in the order answers came back, counted in its window: what contradicts every kind of limiter is reported. */
  private released(answer: Answer, window: AccountedWindow<Answer>): void {
    const { reading } = answer;
    const found = this.listeners.found;
    if (!this.limitsSeen.includes(reading.limit)) this.limitsSeen.push(reading.limit);
    if (!isAdmitted(reading)) {
      this.refused(answer, found, window);
      return;
    }
    this.admittedAfterRefusal(answer);
    this.follow(answer, found);
    if (reading.receivedAt >= reading.reset * 1000 - this.slackMs) return;
    const sameSaid = window.firmRemaining.get(reading.remaining);
    const track = this.tracks.get(reading.limit);
    if (track && sameSaid !== undefined && sameSaid !== answer.id) track.repeated ??= { remaining: reading.remaining, reset: window.reset, exchanges: [sameSaid, answer.id] };
    // Reported once, as the window first goes past its limit.
    if (firmlyPastLimit(window) === 1) {
      const first = [...window.firmRemaining.values()].slice(0, MAX_EXCHANGES - 1);
      found({ check: 'minute-max', message: `${window.limit + 1} admitted under one Reset (${window.resets.join(' and ')}${window.resets.length > 1 ? ': one end, rounded a second apart by the nodes that wrote it' : ''}) whose limit is ${window.limit}, every one more than ${seconds(this.slackMs)} before that Reset`, exchanges: [...first, answer.id] });
    }
  }

  get openWindows(): number {
    return this.accountant.openWindows;
  }

  private summary(window: AccountedWindow<Answer>): ClosedWindow {
    return { windowClass: this.classOf(window.limit), limit: window.limit, firmAdmissions: window.firmAdmitted, whole: wholeWindow(window) };
  }

  private classOf(limit: number): WindowClass {
    return classOf(limit, this.plan ?? 'enterprise', this.limitsSeen);
  }

  /** The window a Limit is counted over: a bucket's learned from its Resets, else the documented one. */
  private windowOf(limit: number, sample: PairSample): number | undefined {
    const windowClass = this.classOf(limit);
    return sample.bucketWindowMs ?? documentedWindowMs(windowClass);
  }

  /** An admitted answer after the latest of its Limit: judged at once where every kind agrees, kept where the kind decides. */
  private follow(answer: Answer, found: (contradiction: Contradiction) => void): void {
    const { limit } = answer.reading;
    const track = this.tracks.get(limit);
    if (!track) {
      const sample = new PairSample(documentedWindowMs(this.classOf(limit)) ?? MINUTE_WINDOW_MS);
      sample.addReading(answer.reading);
      this.tracks.set(limit, { latest: answer, sample, notFallen: undefined, steepest: undefined, movedForward: [], anchor: answer.reading.reset, firstOf: new Map([[answer.reading.reset, answer.reading]]) });
      return;
    }
    track.sample.addReading(answer.reading);
    const first = track.firstOf.get(answer.reading.reset);
    if (!first || answer.reading.remaining > (first.remaining ?? -1)) track.firstOf.set(answer.reading.reset, answer.reading);
    if (track.firstOf.size > FIRST_OF_KEPT) track.firstOf.delete(track.firstOf.keys().next().value!);
    const before = track.latest;
    // Requests in flight at once may have been decided in either order: only one after another tell a story.
    const order = decidedAfter(before, answer, this.clockSkewMs);
    if (order === 'unknown') {
      this.inFlightWithLatest(track, answer);
      this.orderUnknown(before, answer);
      return;
    }
    track.latest = answer;
    const [previous, next] = [before.reading, answer.reading];
    const rose = next.remaining > previous.remaining;
    // Within the clock skew two clocks may have swapped the pair: what holds in the swapped order is no contradiction,
    // and a rise that the swapped order makes a fall tells nothing of the limiter's kind.
    const swappable = order === 'maybe-after';
    const pair: Pair = [before, answer];
    // Resets a second apart may name one end, rounded apart by two nodes (reading.ts): only a larger move moved.
    const sameEnd = sameEndRounded(next.reset, previous.reset) && sameEndRounded(next.reset, track.anchor);
    if (!(swappable && rose)) this.addToSample(track, pair, sameEnd);
    else track.told = undefined;
    track.lastPair = pair;
    if (!sameEnd) track.anchor = next.reset;
    if (next.reset < previous.reset && !sameEnd) {
      // Swapped, the earlier Reset's window may have ended first: a second sooner still where a node rounded it up.
      if (swappable && mayHaveEnded(next.reset - RESET_RESOLUTION_S, previous.receivedAt + this.clockSkewMs)) return;
      found({ check: 'reset-stable', message: `Limit ${limit}: ${resetMovedText(previous, next)}`, exchanges: [before.id, answer.id] });
      return;
    }
    // Within the slack the old Reset may have come (the capture's clock against the target's): nothing to judge.
    if (next.receivedAt >= Math.min(previous.reset, next.reset) * 1000 - this.slackMs) return;
    if (swappable && rose) return;
    if (next.remaining >= previous.remaining) {
      // A bucket explains a rise of Remaining only as far as tokens come back in the time between: the steepest is judged.
      const slope = (next.remaining - previous.remaining - 2) / Math.max(1, next.receivedAt - previous.sentAt);
      if (track.steepest === undefined || slope > track.steepest.slope) track.steepest = { pair, slope };
    }
    if (next.reset > previous.reset && !sameEnd) {
      if (track.movedForward.length < MAX_MOVED) track.movedForward.push(pair);
    } else if (next.remaining >= previous.remaining) track.notFallen ??= pair;
  }

  /**
   * A pair the limiter's kind is told from. A step to a Reset one resolution later, within a second of the window's
   * first, with Remaining falling, before the earlier Reset can have come, is told as one end: a second node rounding
   * it the other way writes exactly that, and so does a bucket spending a token, which only a Reset moving on past the
   * resolution tells apart (its next step does). Told as a token spent, a fixed window a fleet answers would pass for a
   * bucket, whose countdown is not judged. Once the earlier Reset may have come, the step stays as it was: a sliding
   * log's oldest request left.
   */
  private addToSample(track: LimitTrack, [before, answer]: Pair, sameEnd: boolean): void {
    const [previous, next] = [before.reading, answer.reading];
    const oneEnd = sameEnd && next.reset > previous.reset && next.remaining < previous.remaining && !mayHaveEnded(previous.reset, next.receivedAt);
    const told = oneEnd ? { ...next, reset: previous.reset } : next;
    track.sample.addPair(previous, told);
    track.told = [previous, told];
  }

  /**
   * An answer in flight with the latest, under the new Reset the latest opened, may have been decided before it, right
   * after the one before the latest: where it says more was left than the latest did, it was (a window counts down),
   * and the pair across the Reset the kind is told from is that one.
   */
  private inFlightWithLatest(track: LimitTrack, answer: Answer): void {
    const [first, second] = track.lastPair ?? [];
    if (!first || !second || first.reading.reset === second.reading.reset || answer.reading.reset !== second.reading.reset) return;
    if (answer.reading.remaining <= second.reading.remaining || decidedAfter(first, answer, this.clockSkewMs) !== 'after') return;
    if (track.told) track.sample.withdraw(...track.told);
    this.addToSample(track, [first, answer], sameEndRounded(answer.reading.reset, first.reading.reset) && sameEndRounded(answer.reading.reset, track.anchor));
    track.lastPair = [first, answer];
  }

  /**
   * Two answers the capture does not order (one without its request's time, or both in flight together): what holds
   * only in one order is neither failed nor passed, but left partly checked, saying why.
   */
  private orderUnknown(before: Answer, answer: Answer): void {
    if (answer.sentAt === undefined) {
      for (const check of ['remaining-steps', 'reset-stable'] as const) this.listeners.unchecked(check, UNTIMED);
      return;
    }
    const [previous, next] = [before.reading, answer.reading];
    const clear = Math.max(previous.receivedAt, next.receivedAt) < Math.min(previous.reset, next.reset) * 1000 - this.slackMs;
    if (clear && !sameEndRounded(previous.reset, next.reset)) this.listeners.unchecked('reset-stable', IN_FLIGHT_APART);
  }

  /**
   * A refusal that itself says requests are left in the window it names: nothing the capture does not hold explains
   * it (requests of other clients would have lowered that Remaining, not left it above 0), so the header promised
   * more than the window admitted (RL-6). Shown with the admission before it under the same Reset, when there is one.
   */
  private refused(answer: Answer, found: (contradiction: Contradiction) => void, window: AccountedWindow<Answer>): void {
    const { limit, remaining, reset, receivedAt } = answer.reading;
    this.lastRefusal.set(limit, answer);
    const latest = this.tracks.get(limit)?.latest;
    if (latest && !this.promises.has(window) && latest.reading.remaining >= LEAST_PROMISED && window.resets.includes(latest.reading.reset) && decidedAfter(latest, answer, this.clockSkewMs) !== 'unknown' && receivedAt < reset * 1000 - this.slackMs && !this.banLike(answer)) this.promises.set(window, [latest, answer]);
    if (remaining === 0 || receivedAt >= reset * 1000 - this.slackMs || this.overstated.has(limit) || this.banLike(answer)) return;
    this.overstated.add(limit);
    const promised = latest && latest.reading.reset === reset && decidedAfter(latest, answer, this.clockSkewMs) !== 'unknown' ? latest : undefined;
    const before = promised ? `after an admission under it said ${promised.reading.remaining} were left, ` : '';
    found({
      check: 'refusal-says-left',
      message: `Limit ${limit}: a 429 under Reset ${reset}, ${before}said X-RateLimit-Remaining ${remaining}: it promised requests its window then refused, more than ${seconds(this.slackMs)} before that Reset`,
      exchanges: promised ? [promised.id, answer.id] : [answer.id],
    });
  }

  /**
   * A window the capture holds whole (its Remaining values from limit - 1 down, none skipped) that refused a request
   * decided after its last admission, which said some were left: its Remaining promised more than it admitted (RL-6).
   */
  private promisedMore(window: AccountedWindow<Answer>): void {
    const promise = this.promises.get(window);
    if (!promise || !wholeWindow(window)) return;
    const [admission, refusal] = promise;
    const lowest = Math.min(...window.firmRemaining.keys());
    if (admission.reading.remaining !== lowest) return;
    this.listeners.found({
      check: 'refusal-says-left',
      message: `Limit ${window.limit}: the window of Reset ${window.reset} admitted ${window.firmAdmitted}, each request the capture holds, its Remaining counting down to ${lowest}; then a request decided after the last of them was refused (429): X-RateLimit-Remaining promised ${lowest} more than the window admitted`,
      exchanges: [admission.id, refusal.id],
    });
  }

  /**
   * A refusal asking for a wait no window of its Limit explains: a ban (ERR-GAP-3) or a spent day, which may come
   * from another layer than the limiter whose figures the headers show.
   */
  private banLike(refusal: Answer): boolean {
    const windowClass = this.classOf(refusal.limit);
    if (windowClass === 'other') return true;
    return longerThanWindow(longestAskedMs(refusal.retryAfterMs, refusal.reset, refusal.receivedAt), documentedWindowMs(windowClass) ?? MINUTE_WINDOW_MS);
  }

  /** A refusal, then an admission under the same Reset well before it: quota came back before Reset, as no fixed window gives it. */
  private admittedAfterRefusal(answer: Answer): void {
    const { limit, reset, receivedAt } = answer.reading;
    const refusal = this.lastRefusal.get(limit);
    // Within the clock skew the two may have been decided in the other order: only an admission after for certain shows it.
    if (!refusal || this.givenBack.has(limit) || refusal.reading.reset !== reset || decidedAfter(refusal, answer, this.clockSkewMs) !== 'after' || receivedAt >= reset * 1000 - this.slackMs) return;
    this.givenBack.set(limit, `a request was admitted under Reset ${reset} after one was refused under it, more than ${seconds(this.slackMs)} before that Reset (exchanges ${refusal.id}, ${answer.id}): quota came back before Reset`);
  }

  /**
   * A reading as the target's clock may have seen it: sent up to the slack earlier, answered up to the slack later
   * (the capture's clock against the target's), so a Reset is held to a bucket's meaning only beyond that.
   */
  private widened(reading: Reading): Reading {
    return { ...reading, sentAt: reading.sentAt - this.slackMs, receivedAt: reading.receivedAt + this.slackMs };
  }

  private judgeLimit(limit: number, track: LimitTrack, found: (contradiction: Contradiction) => void): LimiterSeen {
    const windowMs = this.windowOf(limit, track.sample);
    const { kind, evidence } = windowMs === undefined || track.sample.pairs.length === 0
      ? { kind: 'unknown' as const, evidence: ['too few answers one after the other to tell its kind'] }
      : kindOfPairs(track.sample.pairs.map((pair) => firstAfterReset(pair, track.firstOf)), windowMs);
    const exchanges = ([first, second]: Pair): number[] => [first.id, second.id];
    const as = `the limiter is ${kind === 'bucket' ? 'a token bucket' : kind}: ${evidence[0]}`;
    for (const pair of track.movedForward) {
      const problem = windowMs === undefined ? undefined : resetStepProblem(this.widened(pair[0].reading), this.widened(pair[1].reading), windowMs);
      if (problem !== undefined) found({ check: 'reset-stable', message: `Limit ${limit}: ${problem}, more than ${seconds(this.slackMs)} before the Reset it replaced`, exchanges: exchanges(pair) });
    }
    const givenBack = this.givenBack.get(limit);
    const seen = givenBack && kind !== 'bucket' && kind !== 'sliding-counter' ? [...evidence, givenBack] : evidence;
    if (FIXED.has(kind) && !givenBack) {
      if (track.notFallen) {
        const [previous, next] = track.notFallen;
        const problem = remainingStepProblem(previous.reading, next.reading, windowMs!, false);
        found({ check: 'remaining-steps', message: `Limit ${limit}: ${problem} (or lower, had requests this capture does not hold come between), between answers decided one after the other under one Reset (${next.reading.reset}), more than ${seconds(this.slackMs)} before it; ${as}, and a fixed window gives nothing back before Reset`, exchanges: exchanges(track.notFallen) });
      } else if (track.repeated) {
        const { remaining, reset, exchanges: both } = track.repeated;
        found({ check: 'remaining-steps', message: `Limit ${limit}: two admissions under one Reset (${reset}), more than ${seconds(this.slackMs)} before it, both said X-RateLimit-Remaining ${remaining}: whichever was decided second did not lower it; ${as}, and a fixed window gives nothing back before Reset`, exchanges: both });
      }
      return { limit, kind, evidence: seen, unjudged: undefined };
    }
    if (kind === 'bucket' && track.steepest) {
      const [previous, next] = track.steepest.pair;
      const problem = remainingStepProblem(previous.reading, next.reading, windowMs!, true);
      if (problem !== undefined) found({ check: 'remaining-steps', message: `Limit ${limit}: ${problem}; ${as} (${seconds(windowMs!)} to refill, learned from its Resets)`, exchanges: exchanges(track.steepest.pair) });
    }
    const unjudged = kind === 'fixed-clock' || kind === 'fixed-first-use' ? GIVEN_BACK_UNJUDGED : COUNTDOWN_UNJUDGED[kind];
    return { limit, kind, evidence: seen, unjudged };
  }
}

/**
 * A pair across a Reset whose second was not the first its window decided (answers in flight together, read in
 * another order): told from the one that said the most was left, decided after the pair's first, as a window counts down.
 */
function firstAfterReset(pair: readonly [Reading, Reading], firstOf: ReadonlyMap<number, Reading>): readonly [Reading, Reading] {
  const [previous, next] = pair;
  if (next.reset === undefined || previous.reset === undefined || sameEndRounded(next.reset, previous.reset)) return pair;
  // Its window's answers may name its end a second either way (two nodes rounding it apart).
  const candidates = [next.reset - 1, next.reset, next.reset + 1].filter((reset) => !sameEndRounded(reset, previous.reset!)).flatMap((reset) => firstOf.get(reset) ?? []);
  const first = candidates.filter((reading) => decidedAfter(previous, reading, 0) !== 'unknown').sort((a, b) => (b.remaining ?? -1) - (a.remaining ?? -1))[0];
  return first && (first.remaining ?? -1) > (next.remaining ?? -1) ? [previous, first] : pair;
}

/** What the traffic shows fits the kind: partial traffic can make a fixed window look like a sliding log. */
export function describeLimiter(seen: LimiterSeen): string {
  return `Limit ${seen.limit}, as far as this traffic shows: ${seen.kind} (${KIND_MEANING[seen.kind]}); ${seen.evidence.join('; ')}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
