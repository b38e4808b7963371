/**
 * A key spent before the run: its first answer in this run is a 429 that asks for a wait beyond any minute
 * window (its Retry-After, else its X-RateLimit-Reset), so its daily quota is used up, by an earlier run or by
 * another client. That is a fact about the key, not a violation: the tests that need it say what they could not
 * check, the verdict names the key (never the key itself: its variable and place in it) and when it comes back.
 */
import { keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import type { PlanId } from '../../lib/plans.ts';
import { readRateLimit, retryAfterMs } from '../../lib/rate-limit-headers.ts';
import type { TargetClock } from '../../lib/target-clock.ts';
import type { ReceivedResponse, Transport } from './exchange.ts';
import { MINUTE_WINDOW_MS, ROUNDING_MS } from './window-analysis.ts';

/** The annotation a test adds for each spent key it met: "<the key's name>|<ISO time it comes back>". */
export const SPENT_KEY = 'spent-key';

/** The longest wait a minute window's refusal may ask for, in the target's time. */
const LONGEST_MINUTE_WAIT_MS = MINUTE_WINDOW_MS + ROUNDING_MS;

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
  if (waitMs === undefined || waitMs <= LONGEST_MINUTE_WAIT_MS) return undefined;
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

export const whenBack = (untilMs: number): string => `${new Date(untilMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What a keyed client's answers tell the run about its key. */
export interface KeyWatch {
  /** The key came back spent until `untilMs` (real time). */
  spent(untilMs: number): void;
  /** The target counted a request on the key (any answer but 429, and 401 when the key was not taken). */
  admitted(): void;
}

/**
 * Watches a client's answers for a spent key, and counts those its key was charged for (the daily test on a key
 * other tests used adds them to its day). `untilAdmitted`: only a refusal before any admitted answer counts as
 * spent (a test that uses a day up itself meets the day's refusal later, and that one is its own doing).
 */
export function watchedKey(transport: Transport, clock: TargetClock, watch: KeyWatch, { untilAdmitted = false } = {}): Transport {
  let admitted = false;
  return {
    async send(request) {
      const response = await transport.send(request);
      if (response.status !== 429) {
        admitted = true;
        if (response.status !== 401) watch.admitted();
      } else if (!(untilAdmitted && admitted)) {
        const until = spentUntil(response, clock);
        if (until !== undefined) watch.spent(until);
      }
      return response;
    },
  };
}
