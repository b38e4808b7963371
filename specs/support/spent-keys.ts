/**
 * A key spent before the run: its first answer in this run is a 429 that asks for a wait beyond any minute
 * window (its Retry-After, else its X-RateLimit-Reset), so its daily quota is used up, by an earlier run or by
 * another client. That is a fact about the key, not a violation: the tests that need it say what they could not
 * check, the verdict names the key (never the key itself: its variable and place in it) and when it comes back.
 *
 * A temporary ban ("repeated requests after a 429 can lead to a temporary ban of the API key") also asks for
 * longer than a minute, but is told from a spent day by what the 429 says of the day: its X-RateLimit-* name the
 * minute window (the day is not what refuses), or the day's Reset lies well after the wait asked. A ban is waited
 * out when the test has the time, else reported as a ban, never as a day used up.
 */
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import type { PlanId, Quota } from '../../lib/plans.ts';
import { sleep } from '../../lib/backoff.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import type { TargetClock } from '../../lib/target-clock.ts';
import type { ReceivedResponse, Transport } from './exchange.ts';
import { longerThanWindow, MINUTE_WINDOW_MS } from './window-analysis.ts';

/** The annotation a test adds for each spent key it met: "<the key's name>|<ISO time it comes back>". */
export const SPENT_KEY = 'spent-key';

/** How long a 429 received at `receivedAt` (the target's time) asks to wait: Retry-After, else until its X-RateLimit-Reset. */
function askedWaitMs(refusal: ReceivedResponse, receivedAt: number): number | undefined {
  const retryAfter = retryAfterMs(refusal.headers['retry-after'], receivedAt);
  if (retryAfter !== undefined) return retryAfter;
  const reset = readRateLimit(refusal.headers)?.reset;
  return reset === undefined ? undefined : Math.max(0, reset * 1000 - receivedAt);
}

/** When (real time, ms since the epoch) a 429 just received says its key comes back, if that lies beyond any minute window. */
export function spentUntil(refusal: ReceivedResponse, clock: TargetClock): number | undefined {
  if (refusal.status !== 429) return undefined;
  const waitMs = askedWaitMs(refusal, clock.now());
  if (waitMs === undefined || !longerThanWindow(waitMs, MINUTE_WINDOW_MS)) return undefined;
  return Date.now() + clock.toRealMs(waitMs);
}

/**
 * When (real time) a 429 just received says a ban on its key ends, if it is a ban: a wait beyond any minute window
 * while the headers name the minute's quota, or the day's quota with a Reset well after the wait. Without a Limit
 * of either quota nothing tells a ban from a day used up, and it is taken for the day.
 */
export function bannedUntil(refusal: ReceivedResponse, clock: TargetClock, quota: Quota): number | undefined {
  if (refusal.status !== 429 || quota.perMinute === quota.perDay) return undefined;
  const now = clock.now();
  const waitMs = askedWaitMs(refusal, now);
  if (waitMs === undefined || !longerThanWindow(waitMs, MINUTE_WINDOW_MS)) return undefined;
  const reading = readRateLimit(refusal.headers);
  const kind = reading === undefined ? undefined : windowKind(reading, quota);
  const dayGoesOn = kind === 'day' && reading?.reset !== undefined && longerThanWindow(reading.reset * 1000 - now - waitMs, MINUTE_WINDOW_MS);
  if (kind !== 'minute' && !dayGoesOn) return undefined;
  return Date.now() + clock.toRealMs(waitMs);
}

/** A key named without showing it: "the 2nd key of PETSTORE_API_KEY_PRO". */
export function keyName(keys: Readonly<KeysByPlan>, plan: PlanId, key: string): string {
  const place = keys[plan].indexOf(key) + 1;
  const ordinal = place === 1 ? '1st' : place === 2 ? '2nd' : place === 3 ? '3rd' : `${place}th`;
  return `the ${ordinal} key of ${keyVariable(plan)}`;
}

/** What a test that needs a spent key says instead of judging: the key, why, and when to run again. */
export function spentReason(name: string, untilMs: number): string {
  const back = whenBack(untilMs);
  return `${name} is spent: a 429 asked it to wait until ${back}, beyond any minute window (its daily quota is used up, by an earlier run or another client); run again after ${back}`;
}

/** What a test that meets a ban it cannot wait out says instead of judging. */
export function bannedReason(name: string, untilMs: number): string {
  const back = whenBack(untilMs);
  return `${name} is banned until ${back}: a 429 asked for longer than a minute window while its headers said the day goes on (a temporary ban, not a day used up), longer than this test may wait; run again after ${back}`;
}

/** The annotation a test adds for each banned key it could not wait for: "<the key's name>|<ISO time it comes back>". */
export const BANNED_KEY = 'banned-key';

export const whenBack = (untilMs: number): string => `${new Date(untilMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What a keyed client's answers tell the run about its key. */
export interface KeyWatch {
  /** The key came back spent until `untilMs` (real time). */
  spent(untilMs: number): void;
  /** The target counted a request on the key (any answer but 429, and 401 when the key was not taken). */
  admitted(): void;
  /** The key is banned until `untilMs` (real time): whether to wait it out and send the request again. */
  banned?(untilMs: number): boolean;
  /** Requests the run's other tests were admitted on the key before this client's first: its day's count so far. */
  admittedBefore?: number;
  /** This run's count used up the key's day, which ends at `untilMs` (real time): remembered for the next run. */
  usedUp?(untilMs: number): void;
  /** Whether an earlier run's count used up the key's day, ending at `untilMs` (real time): a refusal until then is that day. */
  usedUpEarlier?(untilMs: number): boolean;
}

/**
 * Watches a client's answers for a spent key, and counts those its key was charged for (the daily test on a key
 * other tests used adds them to its day). `untilAdmitted`: only a refusal before any admitted answer counts as
 * spent (a test that uses a day up itself meets the day's refusal later, and that one is its own doing).
 *
 * A refusal beyond any minute window that the count explains is the day used up, whatever window its headers
 * describe (they may name the minute: Limit 60, Remaining 20, Reset seconds away): the run was admitted the key's
 * whole day, or an earlier run was, and the wait ends when that day does. Only what the count cannot explain is
 * told from a day by its headers (bannedUntil), and may be a ban.
 */
export function watchedKey(transport: Transport, clock: TargetClock, watch: KeyWatch, { untilAdmitted = false, quota }: { untilAdmitted?: boolean; quota?: Quota } = {}): Transport {
  let admitted = false;
  let admittedHere = 0;
  const send: Transport['send'] = async (request) => {
    const response = await transport.send(request);
    if (response.status !== 429) {
      admitted = true;
      if (response.status !== 401) {
        admittedHere++;
        watch.admitted();
      }
      return response;
    }
    const dayEnds = quota === undefined ? undefined : spentUntil(response, clock);
    if (dayEnds !== undefined) {
      const countedHere = (watch.admittedBefore ?? 0) + admittedHere >= quota!.perDay;
      if (countedHere) watch.usedUp?.(dayEnds);
      if (countedHere || watch.usedUpEarlier?.(dayEnds)) {
        if (!(untilAdmitted && admitted)) watch.spent(dayEnds);
        return response;
      }
    }
    const ban = quota === undefined ? undefined : bannedUntil(response, clock, quota);
    if (ban !== undefined) {
      if (!watch.banned?.(ban)) return response;
      await sleep(Math.max(0, ban - Date.now()) + BAN_SLACK_MS);
      return send(request);
    }
    if (!(untilAdmitted && admitted)) {
      const until = spentUntil(response, clock);
      if (until !== undefined) watch.spent(until);
    }
    return response;
  };
  return { send };
}

/** Real milliseconds waited beyond a ban's end: timers and whole-second headers are not exact. */
const BAN_SLACK_MS = 1_000;
