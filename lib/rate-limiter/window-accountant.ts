/**
 * The one place answers are grouped into windows: the load harness's account of a run (account.ts), its live view,
 * the Locust engine's per-window sums and the judge's captures all go through it. A window is what the target says
 * it is: the answers that name the same X-RateLimit-Limit (which quota) and X-RateLimit-Reset (when it ends).
 *
 * Input comes in whatever order it has. A load run records its own answers as they come back ('input' order: taken
 * as they come). A capture ('time' order) may hold answers out of order: gateways' logs merged, a slow request
 * logged when it ended, a HAR listing entries by when they started. So answers wait in a buffer keyed by time and
 * leave it in the order they came back, once nothing that came back earlier can still arrive: an answer is taken
 * when it came back no more than `reorderMs` before the latest answer did, or left no more than `reorderMs` before
 * the latest request did (a slow answer is late only by its own duration). Anything further back is refused
 * (OutOfOrderAnswer), never quietly counted in a window already closed. A window closes once every answer still to
 * come left after its Reset (and `slackMs`), never merely because the clock passed its Reset.
 *
 * What a window keeps: its counts, the Remaining values of its firm admissions (those that came back more than
 * `slackMs` before its Reset: nothing can have left the window by then), and, when asked (`keepAnswers`), its answers.
 * A generator's per-window sums (Locust's workers ship them) add to the same windows; a window with sums in it
 * knows how many, never in which order, so checks that need the order of its answers leave it unjudged.
 */
import { countdownBreak } from './countdown.ts';
import type { Outcome } from './admitted.ts';
import { RESET_RESOLUTION_S, roundedApartBefore, ROUNDING_MS } from './reading.ts';

export interface AccountedAnswer {
  /** Where the answer is in the input (an exchange's number, an observation's index): what a message names. */
  id: number;
  outcome: Outcome;
  limit: number;
  /** undefined: the answer did not say (a load run counts it in its window all the same). */
  remaining: number | undefined;
  /** X-RateLimit-Reset, Unix seconds. */
  reset: number;
  /** Milliseconds: when the request left, undefined when the input does not say (no duration); when the answer came back. */
  sentAt: number | undefined;
  receivedAt: number;
}

/** What a generator counted of one window, without the order of its answers. */
export interface WindowSums {
  limit: number;
  reset: number;
  admitted: number;
  refused: number;
  /** Remaining values of the admitted answers, as runs: [highest, lowest, times each]. */
  remaining: ReadonlyArray<readonly [number, number, number]>;
  /** Milliseconds: the first request's leaving, the last answer's coming back (null when none). */
  firstSentAt: number | null;
  lastReceivedAt: number | null;
  /** How many admissions came back more than the accountant's slack before the Reset they named, where the generator counted them. */
  firm?: number | undefined;
}

export interface AccountedWindow<A extends AccountedAnswer> {
  limit: number;
  /** The Reset its first answer named. */
  reset: number;
  /**
   * Every Reset its answers named: one, or two a second apart when answers decided well before either came named
   * both (one end rounded apart by two nodes, reading.ts); never more, so a Reset that keeps moving is never one window.
   */
  resets: number[];
  /** The answers, in the order they left the buffer; empty unless the accountant keeps them. */
  answers: A[];
  admitted: number;
  refused: number;
  /** Admissions that came back more than the slack before Reset. */
  firmAdmitted: number;
  /** Each Remaining value a firm admission said, with the first answer that said it. */
  firmRemaining: Map<number, number>;
  /** Sums of a generator went into it: the order of its answers is not known. */
  fromSums: boolean;
}

export interface AccountantOptions {
  /** 'input': the input is in the order its answers came back (a load run's own record); 'time': put it in order. */
  order: 'input' | 'time';
  /** How far back, in ms, an answer may come and still be put in its place ('time' order). */
  reorderMs: number;
  /** An admission this close to its Reset (ms) may have come after the window ended: not firm. */
  slackMs: number;
  keepAnswers?: boolean;
  /**
   * Added to the answers' times to place them against Reset (epoch ms): a load run's times count from its start, a
   * capture's from the epoch (0). Without it answers are not placed against Reset, and Resets a second apart are never
   * taken for one end.
   */
  epochOffsetMs?: number;
}

export interface AccountantListeners<A extends AccountedAnswer> {
  /** Each answer, in the order it came back ('time') or was given ('input'), once counted in its window. */
  released?(answer: A, window: AccountedWindow<A>): void;
  /** Each window, once no answer still to come can be in it. */
  closed?(window: AccountedWindow<A>): void;
}

/** Input that went back in time further than the buffer holds. */
export class OutOfOrderAnswer extends Error {
  override name = 'OutOfOrderAnswer';
  constructor(
    readonly id: number,
    readonly behindMs: number,
    readonly reorderMs: number,
  ) {
    super(`goes back in time ${(behindMs / 1000).toFixed(1)} s before answers already read, more than the ${(reorderMs / 1000).toFixed(0)} s within which answers are put back in order`);
  }
}

/** How far the buffer must move on before it is sorted and released again: a sort per answer would cost too much. */
const RELEASE_STEP_MS = 250;

export class WindowAccountant<A extends AccountedAnswer = AccountedAnswer> {
  /** By windowKey: a window a second apart from its own Reset too, where it names one end rounded apart. */
  private readonly open = new Map<number | string, AccountedWindow<A>>();
  private buffer: A[] = [];
  /** Whether the buffer is already in the order answers leave it (almost always: a capture is mostly in order). */
  private bufferInOrder = true;
  private latestSent = -Infinity;
  private latestReceived = -Infinity;
  private releasedUpTo = -Infinity;
  /**
   * No open window closes at a release up to this (ms): the earliest an open window can close. A window's last Reset
   * only moves on, so this stays true until a window opens. Most releases close nothing and now look at no window
   * (with the judge's keyed answers made their own readings, 2-3% of its judging thread's CPU on the bench HAR).
   */
  private nothingClosesBefore = -Infinity;

  constructor(
    private readonly options: AccountantOptions,
    private readonly listeners: AccountantListeners<A> = {},
  ) {}

  add(answer: A): void {
    if (this.options.order === 'input') {
      this.count(answer);
      return;
    }
    this.admit(answer);
    const last = this.buffer.at(-1);
    if (last && leavesBefore(answer, last)) this.bufferInOrder = false;
    this.buffer.push(answer);
    const watermark = this.watermark;
    if (watermark - this.releasedUpTo >= RELEASE_STEP_MS) this.release(watermark);
  }

  /**
   * A generator's sums for one window, added to the window its Limit and Reset name, or (`epochOffsetMs` given) to
   * the open window a second apart, as an answer is, when the first of them left before either end may have come:
   * sums added in the order their first answers left are grouped as those answers would be. Returns that window.
 * Its admissions are firm when all came back before the slack, else those the generator counted firm.
   */
  addSums(sums: WindowSums): AccountedWindow<A> {
    const { epochOffsetMs } = this.options;
    const window = this.windowOf(sums.limit, sums.reset, epochOffsetMs === undefined || sums.firstSentAt === null ? undefined : sums.firstSentAt + epochOffsetMs);
    window.fromSums = true;
    window.admitted += sums.admitted;
    window.refused += sums.refused;
    // Firm: back before the earlier end, where the window names two.
    const before = sums.firstSentAt === null || sums.lastReceivedAt === null ? false : sums.lastReceivedAt + (epochOffsetMs ?? 0) < Math.min(sums.reset, window.reset) * 1000 - this.options.slackMs;
    if (before) {
      window.firmAdmitted += sums.admitted;
      for (const [high, low] of sums.remaining) for (let value = high; value >= low; value--) if (!window.firmRemaining.has(value)) window.firmRemaining.set(value, -1);
    } else window.firmAdmitted += sums.firm ?? 0;
    return window;
  }

  /** The input ended: every answer leaves the buffer, every window closes; the windows, in the order they opened. */
  finish(): Array<AccountedWindow<A>> {
    this.release(Infinity);
    const windows = [...new Set(this.open.values())];
    this.open.clear();
    for (const window of windows) this.listeners.closed?.(window);
    return windows;
  }

  get openWindows(): number {
    return new Set(this.open.values()).size;
  }

  /** Every answer still to come came back after this (ms): see admit. */
  private get watermark(): number {
    return this.latestSent - this.options.reorderMs;
  }

  /**
   * Takes an answer that came back no more than reorderMs before the latest one did, or left no more than reorderMs
   * before the latest request did: either way it came back after the watermark, so nothing released before it.
   */
  private admit(answer: A): void {
    const { reorderMs } = this.options;
    const inTime = answer.receivedAt >= this.latestReceived - reorderMs || (answer.sentAt !== undefined && answer.sentAt >= this.latestSent - reorderMs);
    if (!inTime) throw new OutOfOrderAnswer(answer.id, this.latestReceived - answer.receivedAt, reorderMs);
    this.latestSent = Math.max(this.latestSent, answer.sentAt ?? answer.receivedAt);
    this.latestReceived = Math.max(this.latestReceived, answer.receivedAt);
  }

  /**
   * Answers that came back before `upTo` leave the buffer in that order; windows no answer to come can be in close.
   * This runs every RELEASE_STEP_MS of each key's traffic, a few answers each time, and most times no window closes:
   * the set of those closing is made only when one does.
   */
  private release(upTo: number): void {
    this.releasedUpTo = upTo;
    for (const answer of this.leaving(upTo)) this.count(answer);
    if (upTo === Infinity || upTo <= this.nothingClosesBefore) return;
    let closing: Set<AccountedWindow<A>> | undefined;
    let stillOpenUntil = Infinity;
    this.open.forEach((window, id) => {
      const closesAt = lastReset(window) * 1000 + this.options.slackMs;
      if (closesAt >= upTo) {
        stillOpenUntil = Math.min(stillOpenUntil, closesAt);
        return;
      }
      this.open.delete(id);
      (closing ??= new Set()).add(window);
    });
    this.nothingClosesBefore = stillOpenUntil;
    if (closing) for (const window of closing) this.listeners.closed?.(window);
  }

  /** The answers that came back before `upTo`, taken out of the buffer in the order they came back. */
  private leaving(upTo: number): A[] {
    if (this.bufferInOrder) {
      // In order, those leaving are the buffer's head: no answer is looked at twice, nothing is sorted.
      let cut = 0;
      while (cut < this.buffer.length && (this.buffer[cut] as A).receivedAt < upTo) cut++;
      // Cut in place: the buffer keeps its store rather than a new one grown again answer by answer.
      return this.buffer.splice(0, cut);
    }
    const leaving: A[] = [];
    const staying: A[] = [];
    for (const answer of this.buffer) (answer.receivedAt < upTo ? leaving : staying).push(answer);
    this.buffer = staying;
    this.bufferInOrder = staying.every((answer, index) => index === 0 || !leavesBefore(answer, staying[index - 1] as A));
    return leaving.sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
  }

  private count(answer: A): void {
    const { epochOffsetMs } = this.options;
    const window = this.windowOf(answer.limit, answer.reset, epochOffsetMs === undefined ? undefined : (answer.sentAt ?? answer.receivedAt) + epochOffsetMs);
    if (this.options.keepAnswers) window.answers.push(answer);
    if (answer.outcome === 'refused') window.refused++;
    else if (answer.outcome === 'admitted') {
      window.admitted++;
      if (answer.receivedAt + (epochOffsetMs ?? 0) < answer.reset * 1000 - this.options.slackMs) {
        window.firmAdmitted++;
        if (answer.remaining !== undefined && !window.firmRemaining.has(answer.remaining)) window.firmRemaining.set(answer.remaining, answer.id);
      }
    }
    this.listeners.released?.(answer, window);
  }

  /**
   * The open window of `limit` that `reset` names: its own, or, for an answer decided (`decidedBy`, epoch ms) before a
   * neighbour one second apart can have ended, that neighbour's, as one end rounded apart.
   */
  private windowOf(limit: number, reset: number, decidedBy?: number): AccountedWindow<A> {
    const id = windowKey(limit, reset);
    let window = this.open.get(id);
    if (window) return window;
    if (decidedBy !== undefined) {
      for (const other of [reset - RESET_RESOLUTION_S, reset + RESET_RESOLUTION_S]) {
        const neighbour = this.open.get(windowKey(limit, other));
        if (!neighbour || neighbour.resets.length > 1 || !roundedApartBefore(reset, other, decidedBy)) continue;
        neighbour.resets.push(reset);
        this.open.set(id, neighbour);
        return neighbour;
      }
    }
    window = { limit, reset, resets: [reset], answers: [], admitted: 0, refused: 0, firmAdmitted: 0, firmRemaining: new Map(), fromSums: false };
    this.open.set(id, window);
    this.nothingClosesBefore = Math.min(this.nothingClosesBefore, reset * 1000 + this.options.slackMs);
    return window;
  }
}

/**
 * Every admission of the window is in the input: its firm Remaining values run from limit - 1 down with none skipped.
 * Otherwise the target's own headers say requests the input does not hold took from it.
 */
export function wholeWindow(window: Pick<AccountedWindow<AccountedAnswer>, 'limit' | 'firmAdmitted' | 'firmRemaining'>): boolean {
  if (window.firmAdmitted === 0) return true;
  // Distinct values, as many as the admissions, from limit - 1 down without a gap (countdown.ts).
  return window.firmRemaining.size === window.firmAdmitted && window.firmRemaining.has(window.limit - 1) && countdownBreak(window.firmRemaining.keys(), window.limit - 1) === undefined;
}

/**
 * The input's clock is taken to be at least this far from the target's: it is also what keeps a token bucket from
 * looking like a window admitting past its limit (firmlyPastLimit).
 */
const LEAST_SKEW_MS = 1_000;

/**
 * How long before its Reset an admission must have come back to be firm: the Reset's rounding, and the clock skew
 * (`clockSkewMs`, at least LEAST_SKEW_MS).
 */
export function firmSlackMs(clockSkewMs: number): number {
  return ROUNDING_MS + Math.max(LEAST_SKEW_MS, clockSkewMs);
}

/**
 * How many more a window admitted firmly (with `slackMs` from firmSlackMs) than its limit: above 0 breaks the quota
 * whatever the kind of limiter, and whether or not anything was refused. Under one Reset, before it can have come:
 * - a fixed window, or a sliding counter (whose Reset is its current window's end), admits at most its limit;
 * - a sliding log's Reset is when its oldest request leaves: before then none left, so all it admitted are still
 *   counted together, at most its limit;
 * - a token bucket (or GCRA) moves its exact Reset on by one token's refill (a window over its limit) with each
 *   admission, and back only by the time that passed: n admissions took n - 1 refills between the earliest and the
 *   latest of their exact Resets. A firm one's exact Reset lies after its written second began and no more than a
 *   window after it was decided, which was the slack before its written Reset (within the skew): the two Resets a
 *   window counts as one end, a second apart, leave less than a window between them, so n - 1 < its limit.
 * What the slack covers, the judge and the load verdicts judge alike (harness/judge/key-windows.ts, harness/load/verdicts/quota.ts).
 */
export function firmlyPastLimit(window: Pick<AccountedWindow<AccountedAnswer>, 'limit' | 'firmAdmitted'>): number {
  return window.firmAdmitted - window.limit;
}

/** Limits below LARGEST_KEYED_LIMIT and Resets (Unix seconds) below LARGEST_KEYED_RESET make one exact number together (2^53). */
const LARGEST_KEYED_LIMIT = 2 ** 20;
const LARGEST_KEYED_RESET = 2 ** 33;

/**
 * A window's key: Limit and Reset as one number where they fit in one exactly (nearly always: made for every answer, a
 * number costs less than text to make and to look up), else as text. A number and a text never name the same window.
 */
function windowKey(limit: number, reset: number): number | string {
  const fits = Number.isInteger(limit) && Number.isInteger(reset) && limit >= 0 && limit < LARGEST_KEYED_LIMIT && reset >= 0 && reset < LARGEST_KEYED_RESET;
  return fits ? limit * LARGEST_KEYED_RESET + reset : `${limit}|${reset}`;
}

/** The latest Reset a window's answers named (one, or two a second apart). */
function lastReset(window: AccountedWindow<AccountedAnswer>): number {
  let latest = -Infinity;
  for (const reset of window.resets) if (reset > latest) latest = reset;
  return latest;
}

/** Whether `a` leaves the buffer before `b`: it came back earlier, or at the same time and was given first. */
function leavesBefore(a: AccountedAnswer, b: AccountedAnswer): boolean {
  return a.receivedAt - b.receivedAt < 0 || (a.receivedAt === b.receivedAt && a.id < b.id);
}
