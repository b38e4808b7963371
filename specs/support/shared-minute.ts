/**
 * Measure once, judge many. A key's minute window is measured once (a fresh window, its quota at once, one more
 * request) and every rule the measurement can show is judged from it, each by its own test: the quota and the
 * first refusal (PLAN-*), the 429's headers (RL-1, RL-2, RL-4), the countdown (RL-6) and a Reset that stays put
 * (RL-7). On the cheapest plan's key it goes on after its 429: the request after the wait its Retry-After asked
 * for (RL-3) opens a window, taken one request at a time (RL-6's steps, RL-7 again), and a second key's requests
 * between two of the first key's tell whether keys share a count (RL-GAP-1). So a real-time run waits one minute
 * window where it used to wait one a rule.
 *
 * What is kept is only what the target answered; judging stays with the tests. The tests that share a
 * measurement run in one worker, in order (minute-limits.spec.ts): the first to ask measures under its own key
 * lease, and the others read what it kept.
 */
import type { PlanId, Quota } from '../../lib/plans.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { BURST_CONCURRENCY, measuringRequest, sendAtOnce, waitWithinTest, type MinuteMeasurement, type MinuteResult } from './minute-window.ts';
import { isAdmitted, readingOf } from './window-analysis.ts';

/** Requests taken one at a time in the window the wait opened, as RL-6 and RL-7 always took them. */
export const ONE_AT_A_TIME = 10;
/** Requests on a second key between two on the first: Remaining then falls by 1 (counted apart) or by 4 (shared). */
export const ON_SECOND_KEY = 3;

export interface SharedMinute {
  plan: PlanId;
  quota: Quota;
  window: MinuteResult;
  /** What came after the burst: measured on the cheapest plan's key only (RL-3, RL-6's steps, RL-GAP-1). */
  after?: AfterBurst;
}

export interface AfterBurst {
  /** The burst's 429, or the first one met draining a bucket that gave tokens back; undefined when none was refused. */
  refusal: Exchange | undefined;
  /** The wait the refusal's Retry-After asked for (target time), when it was readable. */
  waitMs: number | undefined;
  /** Why nothing was sent after a wait: no 429, no readable Retry-After, or a wait beyond the test's time. */
  notWaited?: string;
  /**
   * Requests one at a time: after the Retry-After (the first is RL-3's), or, on a key that refused nothing, as they
   * came; up to the first refusal, since the suite sends nothing while refused.
   */
  oneAtATime: Exchange[];
  perKey: PerKey | { unavailable: string };
}

/** RL-GAP-1's observation: the first key's last answer, requests on a second key of the plan, the first key again. */
export interface PerKey {
  before: Exchange;
  others: Exchange[];
  again: Exchange;
}

/** Measurements of this worker, by plan: the tests that share one run in this worker. */
const measurements = new Map<string, Promise<SharedMinute>>();

/**
 * The plan's shared measurement: taken by the first test to ask (`measure`), kept for the others. One that could not
 * be completed (the test was skipped or stopped) is not kept: the next test measures itself.
 */
export function measuredOnce(plan: PlanId, repeat: number, measure: () => Promise<SharedMinute>): Promise<SharedMinute> {
  const id = `${plan}#${repeat}`;
  const kept = measurements.get(id);
  if (kept) return kept;
  const taken = measure();
  measurements.set(id, taken);
  taken.catch(() => measurements.delete(id));
  return taken;
}

/**
 * After a measured burst on the cheapest plan's key: waits out its 429 and goes on one request at a time, then
 * asks `secondKey` for RL-GAP-1 (undefined: the plan has no second key to lease, with why).
 */
export async function afterBurst(client: PetStoreClient, measured: MinuteMeasurement, quota: Quota, secondKey: () => Promise<PetStoreClient | string>): Promise<AfterBurst> {
  // A bucket may have admitted the request after its quota on a token it gave back (lib/rate-limiter/burst.ts).
  const refusal = measured.extra.response.status !== 429 && measured.analysis.givenBack > 0 ? await drainBucket(client, quota) : measured.extra;
  const notWaited = (why: string, waitMs?: number): AfterBurst => ({ refusal, waitMs, notWaited: why, oneAtATime: [], perKey: { unavailable: why } });
  if (refusal === undefined) return notWaited('the bucket gave tokens back as fast as the suite could spend them, so there was no Retry-After to wait for');
  if (refusal.response.status !== 429) return notWaited('the request after the quota was admitted, so there was no Retry-After to wait for');
  const header = refusal.response.headers['retry-after'];
  const waitMs = retryAfterMs(header, refusal.receivedAt);
  if (waitMs === undefined) return notWaited(`the 429 gave no Retry-After to wait for (${header ?? 'none'})`);
  const outOfTime = await waitWithinTest(client, waitMs, `the 429's Retry-After (${header})`);
  if (outOfTime) return notWaited(outOfTime, waitMs);
  const oneAtATime = await oneByOne(client);
  return { refusal, waitMs, oneAtATime, perKey: await perKey(client, oneAtATime, secondKey) };
}

/** On a key that refused nothing: requests one at a time as they come, and RL-GAP-1 has no count to look at. */
export async function unlimitedAfter(client: PetStoreClient): Promise<AfterBurst> {
  return { refusal: undefined, waitMs: undefined, oneAtATime: await oneByOne(client), perKey: { unavailable: 'the target limits nothing, so there is no count to share' } };
}

async function oneByOne(client: PetStoreClient): Promise<Exchange[]> {
  const taken: Exchange[] = [];
  while (taken.length < ONE_AT_A_TIME) {
    const exchange = await measuringRequest(client);
    taken.push(exchange);
    if (!isAdmitted(readingOf(exchange))) break;
  }
  return taken;
}

async function perKey(client: PetStoreClient, oneAtATime: readonly Exchange[], secondKey: () => Promise<PetStoreClient | string>): Promise<PerKey | { unavailable: string }> {
  const before = await admittedAgain(client, oneAtATime.at(-1));
  if (typeof before === 'string') return { unavailable: before };
  const second = await secondKey();
  if (typeof second === 'string') return { unavailable: second };
  const others: Exchange[] = [];
  for (let index = 0; index < ON_SECOND_KEY; index++) others.push(await measuringRequest(second));
  return { before, others, again: await measuringRequest(client) };
}

/**
 * The first key's last answer, when admitted. A bucket that refills more slowly than requests taken one at a time
 * may refuse one of them, which is right: that refusal's Retry-After is waited out and the next answer taken instead.
 */
async function admittedAgain(client: PetStoreClient, last: Exchange | undefined): Promise<Exchange | string> {
  if (last === undefined) return 'no request was sent after the wait, so there was no count to compare';
  if (isAdmitted(readingOf(last))) return last;
  const header = last.response.headers['retry-after'];
  const waitMs = retryAfterMs(header, last.receivedAt);
  if (waitMs === undefined) return `the first key was refused after its wait with no Retry-After to wait for (${header ?? 'none'}), so there was no count to compare`;
  const outOfTime = await waitWithinTest(client, waitMs, `the 429's Retry-After (${header})`);
  if (outOfTime) return outOfTime;
  const next = await measuringRequest(client);
  return isAdmitted(readingOf(next)) ? next : 'the first key was refused again after waiting out its Retry-After twice, so there was no count to compare';
}

/**
 * A bucket that admitted the request after its quota on a token it gave back: spent down to a refusal, at most
 * another quota's worth at once; undefined when none was refused.
 */
async function drainBucket(client: PetStoreClient, quota: Quota): Promise<Exchange | undefined> {
  const spent = await sendAtOnce(client, quota.perMinute, BURST_CONCURRENCY, { stopAtRefusal: true });
  return spent.find((exchange) => exchange.response.status === 429);
}
