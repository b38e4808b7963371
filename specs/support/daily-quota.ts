/**
 * Using up a key's daily quota the way a good client would: minute window after minute window, never more
 * requests at once than the window has left (its headers' Remaining when they describe the minute window, else
 * the documented minute quota, stopping at the first 429), and after each 429 waiting as long as its Retry-After
 * asks. A refusal that asks for much longer than a minute window is the day's.
 *
 * Times and waits are the target's (lib/target-clock.ts). Every wait is the target's, so it could keep the loop
 * going for ever: it is bounded by what the documented quota implies. A 429 without Retry-After (RL-1, which the
 * contract check reports) is waited out for a minute window; refused again after that, it is the day's refusal.
 * A request refused again after waiting a minute refusal's full Retry-After, several times in a row, breaks
 * RL-3; and a day's quota needing more windows than it takes at the documented minute limit (plus a margin)
 * breaks the plan's rule.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { Quota } from '../../lib/plans.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { sameEndRounded } from '../../lib/rate-limiter/reading.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import { BURST_CONCURRENCY, measuringRequest, sendAtOnce, type Alone } from './minute-window.ts';
import { count } from './plan-quotas.ts';
import { brokenBy, type Broken } from './target-broke.ts';
import { describesMinuteWindow, isAdmitted, longerThanWindow, MINUTE_WINDOW_MS, readingOf, refusalWaitOf, ROUNDING_MS } from './window-analysis.ts';

export interface DailyOptions {
  quota: Quota;
  /** The key had not been used today before: exactly the daily quota must be admitted. */
  fresh: boolean;
  /** Requests already admitted today by this test (those that found a fresh window, the probe included). */
  admittedBefore: number;
  /**
   * When the first of `admittedBefore` may have been admitted, in the target's time (default: now). A UTC midnight
   * since then may have begun a day that no longer counts them, so it is watched for from there, not from now.
   */
  countedSince?: number;
  /** The plan's rule, which a day taking longer than the documented minute limit implies breaks. */
  rule: string;
  /** A minute window's length, as its headers gave it or else the documented minute: tells a minute refusal from the day's. */
  windowMs: number;
  concurrency?: number;
  /** Waits a span of the target's time; default: the client's clock. */
  wait?: (ms: number) => Promise<void>;
  alone?: Alone;
  progress?: (line: string) => void;
}

export interface DailyOutcome {
  admitted: number;
  windows: number;
  /** The refusal that closed the day, when one came. */
  dayRefusal: Exchange | undefined;
  /** A request admitted beyond the daily quota, when the target admitted one. */
  overQuota: Exchange | undefined;
  /** With a fresh key: a request refused for the day before the quota was used. */
  earlyRefusal: boolean;
  /** The target broke a rule that kept the day from ending within its bound. */
  broken?: Broken;
  /**
   * A new day began during the measurement (newDayCause), so the count after it proves nothing: set when the
   * count went over the quota only after that sign, which then is no violation, and the rule is partly checked.
   */
  newDay?: string;
}

/**
 * Refusals asking for longer than this many windows (lib/rate-limiter/refusal-wait.ts, longerThanWindow) are taken
 * as the day's: a ban (ERR-GAP-3) may ask for a few windows, and taking it for the day would call the day early.
 */
const DAY_REFUSAL_WINDOWS = 4;
/** A refusal the day's: no DAY_REFUSAL_WINDOWS windows of `windowMs` explain its wait, nor a documented minute. */
const asksForTheDay = (waitMs: number, windowMs: number): boolean => longerThanWindow(waitMs, Math.max(DAY_REFUSAL_WINDOWS * windowMs, MINUTE_WINDOW_MS));
const PROGRESS_EVERY_MS = 5_000;
/** Refusals in a row, each after waiting the previous one's full Retry-After, that show it does not work. */
const REFUSALS_AFTER_FULL_WAIT = 3;
/** Windows a day may take beyond what the documented minute limit implies: timers are not exact. */
const extraWindows = (needed: number): number => 3 + Math.ceil(needed / 4);
/** Real milliseconds added to every wait: timers are not exact. */
const SLACK_MS = 20;

/** Minute windows the rest of a day's quota needs at the documented minute limit. */
const windowsNeeded = (quota: Quota, admittedBefore: number): number => Math.ceil(Math.max(0, quota.perDay - admittedBefore) / quota.perMinute);

/** The longest a target may keep consumeDay waiting before it fails the plan's rule. */
export function maxDayWaitMs(quota: Quota, admittedBefore: number, windowMs: number): number {
  const needed = windowsNeeded(quota, admittedBefore);
  return (needed + extraWindows(needed)) * (windowMs + ROUNDING_MS);
}

/**
 * Signs that the key's day started anew while it was being used up: the target's clock passed a UTC midnight (a
 * day aligned to the clock), a day's X-RateLimit-Reset passed, the day's Remaining rose back, or the day's own 429
 * asked for a wait of minutes, or its Remaining promised more than the requests counted leave (a day refilled
 * continuously gives a request back every day/quota). Requests counted
 * after such a sign may belong to a fresh day, so a count over the quota proves a violation only when it was
 * reached before the first sign.
 */
export class DayWatch {
  private dayResetMs: number | undefined;
  private dayRemaining: number | undefined;
  private cause: string | undefined;
  private admittedAtCause = 0;
  /** Why a day may give requests back continuously, once a minute window came back only in part. */
  private refilling: string | undefined;
  private windowMs = MINUTE_WINDOW_MS;

  constructor(
    private readonly quota: Quota,
    /** When the measurement began, in the target's time. */
    private readonly startedAt: number,
    /** Requests of one burst that may be decided out of order: Remaining may rise by this much within a day. */
    private readonly concurrency: number,
  ) {}

  /** Looks at the answers of one round, once `admittedBefore` requests had been admitted before it. */
  see(exchanges: readonly Exchange[], admittedBefore: number): void {
    if (this.cause !== undefined) return;
    const sorted = [...exchanges].sort((a, b) => a.receivedAt - b.receivedAt);
    for (const exchange of sorted) {
      const cause = this.causeIn(exchange, admittedBefore);
      if (cause === undefined) continue;
      this.cause = cause;
      this.admittedAtCause = admittedBefore;
      return;
    }
  }

  /**
   * The first answer after a minute refusal's wait, or after a round that used all its window had left: a window
   * that came back only in part shows a limiter that gives
   * requests back continuously (a token bucket, GCRA, a sliding window), whose day may too, one every day/quota.
   */
  afterWait(first: Exchange, windowMs: number): void {
    const reading = readingOf(first);
    if (this.refilling !== undefined || first.response.status === 429 || !describesMinuteWindow(reading, this.quota)) return;
    if (reading.remaining! >= this.quota.perMinute - 1) return;
    this.refilling = `the minute window came back only in part (X-RateLimit-Remaining ${reading.remaining} of ${this.quota.perMinute}): the target gives requests back continuously (a token bucket, GCRA or a sliding window), so its day may give back one every ${Math.round(DAY_MS / this.quota.perDay / 1000)} s, and a count over the quota within that proves nothing`;
    this.windowMs = windowMs;
  }

  /** Whether a minute window came back only in part: the target gives requests back continuously. */
  get refillsContinuously(): boolean {
    return this.refilling !== undefined;
  }

  /** Why the count cannot be trusted beyond `admitted` requests, if a new day may have begun before them. */
  newDay(admitted: number, now: number): string | undefined {
    if (this.cause !== undefined && admitted > this.admittedAtCause) return this.cause;
    // What a day refilled continuously may have given back since the measurement began, with a window's worth of room.
    const givenBack = Math.ceil((this.quota.perDay * (now - this.startedAt + this.windowMs)) / DAY_MS);
    return this.refilling !== undefined && admitted <= this.quota.perDay + givenBack ? this.refilling : undefined;
  }


  private causeIn(exchange: Exchange, admittedBefore: number): string | undefined {
    const midnight = (Math.floor(this.startedAt / DAY_MS) + 1) * DAY_MS;
    if (exchange.receivedAt >= midnight) {
      return `the target's clock passed UTC midnight (${new Date(midnight).toISOString()}) during the measurement, so a day aligned to the clock may have begun anew and the count after it proves nothing`;
    }
    if (this.dayResetMs !== undefined && exchange.receivedAt >= this.dayResetMs + ROUNDING_MS) {
      return `the day's X-RateLimit-Reset (${new Date(this.dayResetMs).toISOString()}) passed during the measurement: the key's day began anew, and the count after it proves nothing`;
    }
    const reading = readingOf(exchange);
    if (reading.limit !== this.quota.perDay || reading.remaining === undefined) return undefined;
    const askedMs = exchange.response.status === 429 ? retryAfterMs(exchange.response.headers['retry-after'], exchange.receivedAt) : undefined;
    if (askedMs !== undefined && !longerThanWindow(askedMs, DAY_REFUSAL_WINDOWS * MINUTE_WINDOW_MS)) {
      return `the day's 429 asked for only ${Math.ceil(askedMs / 1000)} s (Retry-After ${exchange.response.headers['retry-after']}): the day gives requests back within minutes (a bucket refilled continuously, as a token bucket or GCRA, or a day about to end), so the count after it proves nothing`;
    }
    // Every answer of a round came after the requests admitted before it: a day that never gives back has no more left.
    if (admittedBefore + reading.remaining > this.quota.perDay) {
      return `the day's X-RateLimit-Remaining (${count(reading.remaining)}) after ${count(admittedBefore)} admitted today promises more than ${count(this.quota.perDay)} in the day: the day gives requests back (a bucket refilled continuously, as a token bucket or GCRA, or a day begun anew), so the count after it proves nothing`;
    }
    if (this.dayRemaining !== undefined && reading.remaining > this.dayRemaining + this.concurrency) {
      return `the day's X-RateLimit-Remaining rose from ${count(this.dayRemaining)} to ${count(reading.remaining)}: the key's day began anew during the measurement, and the count after it proves nothing`;
    }
    this.dayRemaining = Math.min(this.dayRemaining ?? reading.remaining, reading.remaining);
    if (reading.reset !== undefined && this.quota.perDay !== this.quota.perMinute) this.dayResetMs = reading.reset * 1000;
    return undefined;
  }
}

const DAY_MS = 86_400_000;

/**
 * Why a minute measurement on a key could not show the minute quota because the key's day is nearly spent: an
 * answer names the day's quota (X-RateLimit-Limit) with fewer left than a minute's quota, or the day's 429 refused
 * within the window. A key whose day runs out admits no more than what is left of it, whatever its minute allows.
 */
export function dayBoundsTheWindow(exchanges: ReadonlyArray<Exchange | undefined>, quota: Quota): string | undefined {
  if (quota.perDay === quota.perMinute) return undefined;
  for (const exchange of exchanges) {
    if (exchange === undefined) continue;
    const reading = readingOf(exchange);
    if (windowKind(reading, quota) !== 'day' || reading.remaining === undefined || reading.remaining >= quota.perMinute) continue;
    const what = exchange.response.status === 429 ? 'a 429 named the day' : `the day had ${count(reading.remaining)} left`;
    return `the key's day is nearly spent (${what}: X-RateLimit-Limit ${count(quota.perDay)}, Remaining ${count(reading.remaining)}), fewer than a minute's ${count(quota.perMinute)}, so a fresh window could not show the minute quota on it; run again when its day is back`;
  }
  return undefined;
}

const silent = (refusal: Exchange): boolean => retryAfterMs(refusal.response.headers['retry-after'], refusal.receivedAt) === undefined;

export async function consumeDay(client: PetStoreClient, options: DailyOptions): Promise<DailyOutcome> {
  const { quota, fresh, concurrency = BURST_CONCURRENCY, wait = client.clock.sleep, progress, alone = (work) => work() } = options;
  const slackMs = client.clock.toTargetMs(SLACK_MS);
  // A window aligned to the clock may have had any part of it left when its length was taken: a minute refusal
  // asking for longer shows the window is longer, and a refusal within a documented minute is never the day's.
  let windowMs = options.windowMs;
  let admitted = options.admittedBefore;
  let windows = 1;
  let lastProgress = Date.now();
  const needed = windowsNeeded(quota, admitted);
  // A limiter that gives requests back continuously admits a minute's quota per documented minute, whatever its
  // Reset said of the window's length: the bound on waiting then counts documented minutes.
  const maxWaitedMs = (): number => maxDayWaitMs(quota, options.admittedBefore, days.refillsContinuously ? Math.max(windowMs, MINUTE_WINDOW_MS) : windowMs);
  let waitedMs = 0;
  let waitedBeforeRound = false;
  let refusedAfterWait = 0;
  let usedWindowBefore = false;
  const days = new DayWatch(quota, Math.min(options.countedSince ?? Infinity, client.clock.now()), concurrency);
  /** An admission over the quota is a violation only when no sign of a new day came before it. */
  const overQuota = (outcome: DailyOutcome, exchange: Exchange | undefined): DailyOutcome => {
    const newDay = days.newDay(outcome.admitted, client.clock.now());
    return newDay === undefined ? { ...outcome, overQuota: exchange } : { ...outcome, newDay };
  };

  // Each round: one request, which says how much the window has left; that many at once; and, once the
  // window is spent, the request that meets its 429, whose Retry-After is waited out.
  for (;;) {
    if (fresh && admitted >= quota.perDay) {
      const confirmed = await confirmDayRefused(client, admitted, windows, windowMs, options, (ms) => wait(ms + slackMs), days);
      return confirmed.overQuota ? overQuota(confirmed, confirmed.overQuota) : confirmed;
    }
    const round = await alone(async () => {
      const first = await measuringRequest(client);
      if (first.response.status === 429) return { accepted: [], refusals: [first], firstRefused: true, usedWindow: false };
      const reading = readingOf(first);
      const windowLeft = describesMinuteWindow(reading, quota) ? reading.remaining! : quota.perMinute - 1;
      const left = Math.min(windowLeft, fresh ? quota.perDay - admitted - 1 : Number.POSITIVE_INFINITY);
      const burst = left > 0 ? await sendAtOnce(client, left, concurrency, { stopAtRefusal: true }) : [];
      const refusals = burst.filter((exchange) => !isAdmitted(readingOf(exchange)));
      // The whole of what the window had left was admitted, all of it in that window: a fixed window is spent until it
      // ends. A burst the window ended in (a slow machine, a fast clock) spent part of the next one too, which its
      // next answer shows as a window that came back only in part: no sign of a limiter that gives back bit by bit.
      const oneWindow = burst.every((exchange) => readingOf(exchange).reset === undefined || sameEndRounded(readingOf(exchange).reset!, reading.reset!));
      const usedWindow = describesMinuteWindow(reading, quota) && left === windowLeft && refusals.length === 0 && oneWindow;
      return { accepted: [first, ...burst.filter((exchange) => isAdmitted(readingOf(exchange)))], refusals, firstRefused: false, usedWindow };
    });
    days.see([...round.accepted, ...round.refusals], admitted);
    const first = round.accepted[0];
    if ((waitedBeforeRound || usedWindowBefore) && first !== undefined) days.afterWait(first, windowMs);
    usedWindowBefore = round.usedWindow;
    admitted += round.accepted.length;
    const outcome: DailyOutcome = { admitted, windows, dayRefusal: undefined, overQuota: undefined, earlyRefusal: false };
    if (admitted > quota.perDay) return overQuota(outcome, round.accepted.at(-1));
    const refusal = round.refusals[0];
    if (refusal === undefined) {
      waitedBeforeRound = false;
      continue;
    }
    const refusedAgain = round.firstRefused && waitedBeforeRound;
    // Refused again without a Retry-After after a whole minute window's wait: only the day's limit is left.
    if (refusedAgain && silent(refusal)) return { ...outcome, dayRefusal: refusal, earlyRefusal: fresh };
    refusedAfterWait = refusedAgain ? refusedAfterWait + 1 : 0;
    if (refusedAfterWait >= REFUSALS_AFTER_FULL_WAIT) return { ...outcome, broken: retryAfterDidNotWork(refusal, admitted) };
    const waitMs = Math.max(...round.refusals.map((exchange) => refusalWaitOf(exchange, quota, options.windowMs)));
    if (asksForTheDay(waitMs, windowMs)) return { ...outcome, dayRefusal: refusal, earlyRefusal: fresh };
    windowMs = Math.min(MINUTE_WINDOW_MS, Math.max(windowMs, Math.ceil(waitMs / 1000) * 1000));
    if (waitedMs + waitMs > maxWaitedMs()) {
      const message =
        `expected a day's ${count(quota.perDay)} requests admitted within ${Math.round(maxWaitedMs() / 1000)} s of waiting: ${needed + extraWindows(needed)} windows of about ${windowMs / 1000} s ` +
        `(${needed} at the documented ${count(quota.perMinute)} a minute, and a margin), each up to a second longer for rounding; got ${count(admitted)} admitted after waiting ${Math.round(waitedMs / 1000)} s over ${windows} windows: ` +
        'the target admits fewer a window than documented, or its Retry-After is shorter than the wait that works';
      return { ...outcome, broken: brokenBy(options.rule, message, refusal) };
    }
    await wait(waitMs + slackMs);
    waitedMs += waitMs;
    waitedBeforeRound = true;
    windows++;
    if (progress && Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      progress(`${count(admitted)} of ${count(quota.perDay)} admitted today, window ${windows}`);
    }
  }
}

function retryAfterDidNotWork(refusal: Exchange, admitted: number): Broken {
  return brokenBy(
    RULE['retry-after-admitted'],
    `expected a request sent after waiting a 429's full Retry-After (${refusal.response.headers['retry-after']}, a minute window's wait) to be admitted, got ${REFUSALS_AFTER_FULL_WAIT} refusals in a row, each after the previous one's wait (${count(admitted)} admitted today)`,
    refusal,
  );
}

/**
 * Once a fresh key has been admitted its whole day, the next request must be refused. A refusal that only
 * asks for a minute window's wait is waited out, and the key must still be refused; one that keeps asking for
 * a minute's wait after it was waited out, time after time, does not say when the key may send again (RL-3).
 */
async function confirmDayRefused(
  client: PetStoreClient,
  admitted: number,
  windows: number,
  windowMs: number,
  options: DailyOptions,
  wait: (ms: number) => Promise<void>,
  days: DayWatch,
): Promise<DailyOutcome> {
  const outcome: DailyOutcome = { admitted, windows, dayRefusal: undefined, overQuota: undefined, earlyRefusal: false };
  let next = await measuringRequest(client);
  for (let waited = 0; ; waited++) {
    days.see([next], admitted);
    if (next.response.status !== 429) break;
    const waitMs = refusalWaitOf(next, options.quota, options.windowMs);
    if (asksForTheDay(waitMs, windowMs) || (waited > 0 && silent(next))) return { ...outcome, windows: outcome.windows + waited, dayRefusal: next };
    if (waited === REFUSALS_AFTER_FULL_WAIT) return { ...outcome, broken: retryAfterDidNotWork(next, admitted) };
    await wait(waitMs);
    next = await measuringRequest(client);
  }
  return { ...outcome, admitted: admitted + 1, overQuota: next };
}

export interface LearnedWindow {
  /** The minute window's length in the target's time, whole seconds: what the day is consumed at. */
  windowMs: number;
  /** Requests admitted while learning it, which count in the key's day. */
  admitted: number;
}

/**
 * A minute window's length from the target itself, for a key whose admitted answers' headers do not describe the
 * minute window (two stacked limiters whose headers are the day's, or a Reset that is no Unix time): two windows
 * are used up in a row, and the step from the first window's end to the second's is the length. A window's end is
 * its refusal's X-RateLimit-Reset when that describes the minute window; else, when the second window gave the
 * whole minute quota back at once (fixed windows), the refusal's arrival plus its Retry-After. Those windows count
 * in the day, which is being spent anyway. Anything else (no Retry-After, a window that came back only in part, as
 * a sliding window or a bucket gives it) leaves the documented minute, the safe assumption: a window taken too
 * long only makes the test slower, one taken too short would cut its waits.
 */
export async function learnWindowMs(client: PetStoreClient, quota: Quota, alone: Alone = (work) => work()): Promise<LearnedWindow> {
  let admitted = 0;
  const windowEnd = async (): Promise<{ refusal: Exchange; admitted: number } | undefined> => {
    const burst = await alone(() => sendAtOnce(client, quota.perMinute + 1, BURST_CONCURRENCY, { stopAtRefusal: true }));
    const admittedNow = burst.filter((exchange) => isAdmitted(readingOf(exchange))).length;
    admitted += admittedNow;
    const refusal = burst.find((exchange) => !isAdmitted(readingOf(exchange)));
    return refusal ? { refusal, admitted: admittedNow } : undefined;
  };
  const first = await windowEnd();
  const waitMs = first ? refusalWaitOf(first.refusal, quota) : undefined;
  if (!first || waitMs === undefined || longerThanWindow(waitMs, MINUTE_WINDOW_MS)) return { windowMs: MINUTE_WINDOW_MS, admitted };
  await client.clock.sleep(waitMs + client.clock.toTargetMs(SLACK_MS));
  const second = await windowEnd();
  if (!second) return { windowMs: MINUTE_WINDOW_MS, admitted };
  const [before, after] = [readingOf(first.refusal), readingOf(second.refusal)];
  let stepMs: number | undefined;
  if (describesMinuteWindow(before, quota) && describesMinuteWindow(after, quota)) stepMs = (after.reset! - before.reset!) * 1000;
  else if (second.admitted >= quota.perMinute) {
    const secondWaitMs = retryAfterMs(second.refusal.response.headers['retry-after'], second.refusal.receivedAt);
    const firstWaitMs = retryAfterMs(first.refusal.response.headers['retry-after'], first.refusal.receivedAt);
    if (firstWaitMs !== undefined && secondWaitMs !== undefined) {
      stepMs = Math.ceil((second.refusal.receivedAt + secondWaitMs - (first.refusal.receivedAt + firstWaitMs)) / 1000) * 1000;
    }
  }
  return { windowMs: stepMs !== undefined && stepMs >= 1_000 && stepMs <= MINUTE_WINDOW_MS ? stepMs : MINUTE_WINDOW_MS, admitted };
}
