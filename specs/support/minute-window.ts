/**
 * Measuring a minute window: find a fresh one, fill it at once, and send one more. A quota is a count of what
 * the target admits and refuses, so it is measured whether or not its headers are right. Headers that describe
 * the minute window (window-analysis.ts, describesMinuteWindow) say where a window starts and ends; when they do
 * not (they describe the day's window, or their Reset or Remaining is wrong), the window is used up until a 429,
 * and the request after that 429's wait opens a fresh one. Every wait is the target's Retry-After, else the
 * minute window's Reset its headers give, else the documented minute, and each is bounded by the test's time:
 * a wait that would outlast it is not begun, and the measurement ends "unavailable" saying so (timeLeftOrWait).
 */
import type { Quota } from '../../lib/plans.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { whenBack } from './spent-keys.ts';
import { analyseBurst, describesMinuteWindow, isAdmitted, longerThanWindow, MINUTE_WINDOW_MS, readingOf, refusalWaitOf, ROUNDING_MS, type BurstAnalysis } from './window-analysis.ts';

/** The request a measurement spends: the cheapest documented one. */
export const measuringRequest = (client: PetStoreClient): Promise<Exchange> => client.listPets({ limit: 1 });

export const BURST_CONCURRENCY = 24;
/**
 * Probes for a fresh window before giving up. A sliding window frees one second's requests per Reset, and each
 * probe is a request of its own, so a key used over several seconds before needs several probes.
 */
const MAX_PROBES = 12;
/** Admitted probes that found no fresh window at their Reset before the search waits a whole quiet minute instead. */
const STALE_PROBES_BEFORE_QUIET = 3;
/** Measurements retaken when a window rolls over in the middle of one, before the time left decides. */
const MIN_ATTEMPTS = 5;
/** Real milliseconds added to every wait for a window's end: timers are not exact. */
const SLACK_MS = 20;
/**
 * Requests in flight while a window is used up towards its 429: few enough that the ones already sent when the
 * 429 comes stay below a ban for repeated refusals (the reference server bans after 10 in a window).
 */
const DRAIN_CONCURRENCY = 8;

/** Durations here are the target's (lib/target-clock.ts): what its Reset and Retry-After speak of. */
export interface WindowOptions {
  /** The longest single wait for a window to end or a 429 to lapse that the test can afford, in target time. */
  maxWaitMs: number;
  /** The quota of the key's plan in this run: tells a minute window's headers from the day's, and bounds a window's count. */
  quota: Quota;
  /** Waits a span of target time; default: the client's clock. */
  wait?: (ms: number) => Promise<void>;
  /**
   * Runs a burst while no other test of the run sends one: two bursts at once on two cores can each take
   * longer than a one-second window.
   */
  alone?: Alone;
}

export type Alone = <T>(work: () => Promise<T>) => Promise<T>;
const together: Alone = (work) => work();

/**
 * How the window was known to be fresh: its headers said so (Remaining = Limit - 1 of the minute window), or the
 * request came right after a 429's wait was waited out, or after a whole documented minute of silence.
 */
export type FreshBy = 'headers' | 'refusal' | 'quiet';

/**
 * The target refused none of twice a minute's quota and two more requests, all sent within less than a documented
 * minute: no minute window of the quota admits that many (one that straddles two fixed windows admits at most
 * twice the quota). The proof that it does not limit this key's rate.
 */
export interface Unlimited {
  unlimited: { admitted: number; spanMs: number; evidence: Exchange; message: string };
}

/** `admitted`: the requests admitted while the window was found, the probe's included, which all count in the key's day. */
export type Fresh = { probe: Exchange; by: FreshBy; admitted: number } | { unavailable: string } | Unlimited;

type Step = ({ fresh: Exchange; by: FreshBy } | { waitMs: number; probe: Exchange; refused: boolean } | Unlimited | { unavailable: string }) & {
  /** Requests this step had admitted, which count in the key's day. */
  admitted: number;
};

/**
 * One request, and what it says: a fresh window; or a wait, for the minute window's Reset or for a 429 to lapse;
 * or, when neither its headers nor a refusal just waited out say where the window stands, the window used up until
 * a 429 (whose wait then comes next).
 */
async function probeOnce(client: PetStoreClient, quota: Quota, after: FreshBy | undefined): Promise<Step> {
  const probe = await measuringRequest(client);
  if (probe.response.status === 429) return { waitMs: refusalWaitOf(probe, quota), probe, refused: true, admitted: 0 };
  const reading = readingOf(probe);
  if (describesMinuteWindow(reading, quota)) {
    if (reading.remaining === reading.limit! - 1) return { fresh: probe, by: 'headers', admitted: 1 };
    return { waitMs: Math.max(0, reading.reset! * 1000 - probe.receivedAt), probe, refused: false, admitted: 1 };
  }
  if (after) return { fresh: probe, by: after, admitted: 1 };
  const drained = await useUpWindow(client, quota, probe);
  return 'refusal' in drained ? { waitMs: refusalWaitOf(drained.refusal, quota), probe: drained.refusal, refused: true, admitted: drained.admitted } : drained;
}

/** Requests a window may be used up with before the suite gives up on meeting a 429 or proving there is none. */
const USE_UP_CAP_QUOTAS = 8;

/**
 * Sends requests a few at a time until one is refused. None refused among twice the minute quota and two more,
 * all within less than a documented minute, shows the key unlimited.
 */
async function useUpWindow(client: PetStoreClient, quota: Quota, first: Exchange): Promise<({ refusal: Exchange } | Unlimited | { unavailable: string }) & { admitted: number }> {
  const proof = 2 * quota.perMinute + 2;
  const admitted: Exchange[] = [first];
  let from = 0;
  while (admitted.length < USE_UP_CAP_QUOTAS * proof) {
    const round = await sendAtOnce(client, DRAIN_CONCURRENCY, DRAIN_CONCURRENCY, { stopAtRefusal: true });
    admitted.push(...round.filter((exchange) => exchange.response.status !== 429));
    const refusal = round.find((exchange) => exchange.response.status === 429);
    if (refusal) return { refusal, admitted: admitted.length };
    const last = admitted.at(-1)!;
    // An answer slower than a minute (a fast clock on a busy machine) is not within a minute of itself: none may be.
    while (from < admitted.length && last.receivedAt - admitted[from]!.sentAt >= MINUTE_WINDOW_MS) from++;
    if (admitted.length - from >= proof) {
      const seconds = ((last.receivedAt - admitted[from]!.sentAt) / 1000).toFixed(1);
      const message =
        `expected at most ${2 * quota.perMinute} of any requests sent within one minute to be admitted (${quota.perMinute} a minute; a burst across two fixed windows may meet two), ` +
        `got all ${admitted.length - from} admitted within ${seconds} s and none refused: the key's rate is not limited`;
      return { unlimited: { admitted: admitted.length - from, spanMs: last.receivedAt - admitted[from]!.sentAt, evidence: last, message }, admitted: admitted.length };
    }
  }
  return { unavailable: `${admitted.length} requests were all admitted, but too slowly to show that more than a minute's quota fits one minute`, admitted: admitted.length };
}

/**
 * Why no probe found a fresh window although each waited for the last one's Reset: another client of the key,
 * or a window that does not end at its Reset, which the suite cannot tell from a broken server.
 */
function noFreshWindow(probes: readonly Exchange[]): { unavailable: string } {
  return { unavailable: `no fresh window after ${probes.length} probes spaced by the target's Reset (Remaining was below the limit minus one each time: another client of the key, or a window that does not end at its Reset)` };
}

/**
 * Probes until a request finds a fresh window, then runs `then` on it (inside `alone`, with the probe, so no
 * other burst delays it). Between probes it waits for the window to end (Reset) or a refusal to lapse
 * (Retry-After): one request per window. With `quiet`, it first lets a whole documented minute pass without a
 * request, after which any minute window is fresh, sliding ones included.
 */
async function inFreshWindow<T>(
  client: PetStoreClient,
  options: WindowOptions & { quiet?: boolean },
  then: (probe: Exchange, by: FreshBy, admitted: number) => Promise<T>,
): Promise<T | { unavailable: string } | Unlimited> {
  const { maxWaitMs, quota, wait = client.clock.sleep, alone = together } = options;
  const probes: Exchange[] = [];
  // All waits together stay within twice the longest single one: the test's time is bounded, whatever the target says.
  let waitedMs = 0;
  let after: FreshBy | undefined;
  let admitted = 0;
  if (options.quiet) {
    const outOfTime = await waitWithinTest(client, MINUTE_WINDOW_MS + ROUNDING_MS, 'a quiet minute', wait);
    if (outOfTime) return { unavailable: outOfTime };
    waitedMs = MINUTE_WINDOW_MS + ROUNDING_MS;
    after = 'quiet';
  }
  while (probes.length < MAX_PROBES) {
    const outcome = await alone(async () => {
      const step = await probeOnce(client, quota, after);
      admitted += step.admitted;
      return 'fresh' in step ? { done: await then(step.fresh, step.by, admitted) } : step;
    });
    if ('done' in outcome) return outcome.done;
    if ('unavailable' in outcome) return { unavailable: outcome.unavailable };
    if ('unlimited' in outcome) return { unlimited: outcome.unlimited };
    probes.push(outcome.probe);
    if (outcome.waitMs > maxWaitMs) return { unavailable: tooLongToWait(outcome.waitMs, maxWaitMs, client) };
    // A sliding log whose requests were spread out frees a few at each Reset, and each probe is one more: after a
    // few such probes a whole quiet minute, which frees any minute window, is the shorter way to a fresh one.
    const staleProbes = probes.filter((probe) => isAdmitted(readingOf(probe))).length;
    const quietMs = MINUTE_WINDOW_MS + ROUNDING_MS;
    const goQuiet = after !== 'quiet' && staleProbes >= STALE_PROBES_BEFORE_QUIET && quietMs <= maxWaitMs && waitedMs + quietMs <= 2 * maxWaitMs;
    const waitMs = goQuiet ? quietMs : outcome.waitMs;
    if (waitedMs + waitMs > 2 * maxWaitMs) break;
    waitedMs += waitMs;
    after = goQuiet ? 'quiet' : outcome.refused ? 'refusal' : undefined;
    const outOfTime = await waitWithinTest(client, waitMs, goQuiet ? 'a quiet minute' : outcome.refused ? "a 429's Retry-After" : "the window's Reset", wait);
    if (outOfTime) return { unavailable: outOfTime };
  }
  return noFreshWindow(probes);
}

/** Why a wait the target asked for was not taken: a spent day, or a wait longer than the test has; and what to do. */
function tooLongToWait(waitMs: number, maxWaitMs: number, client: PetStoreClient): string {
  const seconds = Math.ceil(client.clock.toRealMs(waitMs) / 1000);
  const back = whenBack(Date.now() + client.clock.toRealMs(waitMs));
  if (longerThanWindow(waitMs, MINUTE_WINDOW_MS)) {
    return `the key is refused for another ${seconds} s, beyond any minute window: its daily quota is used up (by an earlier run or another client); run again after ${back}`;
  }
  return `the key's window lasts another ${seconds} s, longer than this test can wait (${Math.floor(maxWaitMs / 1000)} s); run again with fewer tests on this key at once, or a longer --timeout`;
}

/**
 * Waits a span of the target's time (plus the timers' slack) when the test has that long left; otherwise waits
 * nothing and says why, so a test never runs into its timeout waiting on the target (a timeout would read as a
 * failure, and a wait too long is no evidence against any rule). `what` names what is waited for.
 */
export async function waitWithinTest(client: PetStoreClient, targetMs: number, what: string, wait: (ms: number) => Promise<void> = client.clock.sleep): Promise<string | undefined> {
  const realMs = client.clock.toRealMs(targetMs) + SLACK_MS;
  const leftMs = client.timeLeftMs();
  if (realMs > leftMs) {
    return `the test's time ran out: waiting ${Math.ceil(realMs / 1000)} s for ${what} would pass the ${Math.max(0, Math.floor(leftMs / 1000))} s it had left; run again with a longer --timeout or fewer tests on this key at once`;
  }
  await wait(targetMs + client.clock.toTargetMs(SLACK_MS));
  return undefined;
}

/** A request at the start of a fresh window (see inFreshWindow). */
export function freshWindow(client: PetStoreClient, options: WindowOptions): Promise<Fresh> {
  return inFreshWindow(client, options, async (probe, by, admitted) => ({ probe, by, admitted }));
}

/**
 * Sends `count` requests with at most `concurrency` in flight; answers in the order they were sent. With
 * `stopAtRefusal`, nothing more is sent once a 429 has come (those already in flight are answered).
 */
export async function sendAtOnce(client: PetStoreClient, count: number, concurrency = BURST_CONCURRENCY, { stopAtRefusal = false } = {}): Promise<Exchange[]> {
  const results: Exchange[] = [];
  let next = 0;
  let refused = false;
  const lane = async (): Promise<void> => {
    while (next < count && !(stopAtRefusal && refused)) {
      const index = next++;
      const exchange = await measuringRequest(client);
      results[index] = exchange;
      if (exchange.response.status === 429) refused = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results.filter((exchange) => exchange !== undefined);
}

export interface MinuteMeasurement {
  analysis: Extract<BurstAnalysis, { kind: 'measured' }>;
  probe: Exchange;
  /** How the probe's window was known to be fresh. */
  by: FreshBy;
  burst: Exchange[];
  extra: Exchange;
  /** Measurements discarded because the window rolled over in the middle, with why. */
  retaken: string[];
}

export type MinuteResult = MinuteMeasurement | { unavailable: string } | Unlimited;

/**
 * Fills one fresh window with the minute quota (the probe and quota-1 at once) and sends one more after them.
 * Retakes the measurement when the window rolled over during it: at least MIN_ATTEMPTS times, and after that
 * for as long as a third of the test's time allows, since a busy machine is no reason to leave the quota
 * unmeasured while a fresh window can still be had. A window found fresh only because a refusal was waited out
 * that then admits fewer than the quota is measured once more after a whole quiet minute, which frees any
 * minute window, a sliding one too, before the count stands.
 */
export async function measureMinuteWindow(client: PetStoreClient, options: WindowOptions): Promise<MinuteResult> {
  const limit = options.quota.perMinute;
  const retaken: string[] = [];
  const started = Date.now();
  const retakeForMs = client.clock.toRealMs(options.maxWaitMs);
  let quiet = false;
  for (let attempt = 1; attempt <= MIN_ATTEMPTS || Date.now() - started < retakeForMs; attempt++) {
    const measured = await inFreshWindow(client, { ...options, quiet }, async (probe, by) => {
      const burstStarted = Date.now();
      const burst = await sendAtOnce(client, limit - 1);
      return { probe, by, burst, extra: await measuringRequest(client), tookMs: Date.now() - burstStarted };
    });
    if ('unavailable' in measured || 'unlimited' in measured) return measured;
    const { probe, by, burst, extra, tookMs } = measured;
    const headersTrusted = describesMinuteWindow(readingOf(probe), options.quota);
    const analysis = analyseBurst({ probe: readingOf(probe), burst: burst.map(readingOf), extra: readingOf(extra), headersTrusted });
    const quietFits = MINUTE_WINDOW_MS + ROUNDING_MS <= options.maxWaitMs;
    if (analysis.kind === 'measured' && analysis.refusedInBurst > 0 && by === 'refusal' && quietFits) {
      retaken.push(`a window found fresh after a 429's wait admitted ${analysis.admitted} of ${limit}; measured again after a whole quiet minute`);
      quiet = true;
      continue;
    }
    if (analysis.kind === 'measured') return { analysis, probe, by, burst, extra, retaken };
    retaken.push(`${analysis.reason} (the burst of ${limit} took ${tookMs} ms)`);
    quiet = false;
    if (extra.response.status === 429) {
      const outOfTime = await waitWithinTest(client, Math.min(options.maxWaitMs, refusalWaitOf(extra, options.quota)), "a 429's Retry-After before measuring again", options.wait);
      if (outOfTime) return { unavailable: `${outOfTime} (the window rolled over during ${retaken.length} bursts: ${retaken.slice(-3).join('; ')})` };
    }
  }
  return { unavailable: `the window rolled over during each of ${retaken.length} bursts, so ${limit} requests could not be sent within one window: ${retaken.slice(-3).join('; ')}` };
}
