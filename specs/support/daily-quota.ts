/**
 * Using up a key's daily quota the way a good client would: minute window after minute window, never more
 * requests at once than the window has left, and after each 429 waiting as long as its Retry-After asks.
 * A refusal that asks for much longer than a minute window is the day's.
 */
import { sleep } from '../../lib/backoff.ts';
import type { Quota } from '../../lib/plans.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { BURST_CONCURRENCY, measuringRequest, refusalWaitMs, sendAtOnce, type Alone } from './minute-window.ts';
import { isAdmitted, readingOf } from './window-analysis.ts';

export interface DailyOptions {
  quota: Quota;
  /** The key had not been used today before: exactly the daily quota must be admitted. */
  fresh: boolean;
  /** Requests already admitted today by this test (the probe that estimated the cost). */
  admittedBefore: number;
  /** A minute window's length as observed, which tells a minute refusal from the day's. */
  windowMs: number;
  concurrency?: number;
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
}

/** Refusals asking for longer than this many minute windows are taken as the day's. */
const DAY_REFUSAL_WINDOWS = 4;
const PROGRESS_EVERY_MS = 5_000;

export async function consumeDay(client: PetStoreClient, options: DailyOptions): Promise<DailyOutcome> {
  const { quota, fresh, concurrency = BURST_CONCURRENCY, wait = sleep, progress, alone = (work) => work() } = options;
  const dayRefusalMs = Math.max(5_000, DAY_REFUSAL_WINDOWS * options.windowMs);
  let admitted = options.admittedBefore;
  let windows = 1;
  let lastProgress = Date.now();

  // Each round: one request, which says how much the window has left; that many at once; and, once the
  // window is spent, the request that meets its 429, whose Retry-After is waited out.
  for (;;) {
    if (fresh && admitted >= quota.perDay) return confirmDayRefused(client, admitted, windows, dayRefusalMs, wait);
    const round = await alone(async () => {
      const first = await measuringRequest(client);
      if (first.response.status === 429) return { accepted: [], refusals: [first] };
      const left = Math.min(readingOf(first).remaining ?? 0, fresh ? quota.perDay - admitted - 1 : Number.POSITIVE_INFINITY);
      const burst = left > 0 ? await sendAtOnce(client, left, concurrency) : [];
      return { accepted: [first, ...burst.filter((exchange) => isAdmitted(readingOf(exchange)))], refusals: burst.filter((exchange) => !isAdmitted(readingOf(exchange))) };
    });
    admitted += round.accepted.length;
    if (admitted > quota.perDay) return { admitted, windows, dayRefusal: undefined, overQuota: round.accepted.at(-1), earlyRefusal: false };
    const refusals = round.refusals;
    if (refusals.length > 0) {
      const waitMs = Math.max(...refusals.map(refusalWaitMs));
      if (waitMs > dayRefusalMs) return { admitted, windows, dayRefusal: refusals[0], overQuota: undefined, earlyRefusal: fresh };
      await wait(waitMs + 20);
      windows++;
    }
    if (progress && Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      progress(`${admitted.toLocaleString('en')} of ${quota.perDay.toLocaleString('en')} admitted today, window ${windows}`);
    }
  }
}

/**
 * Once a fresh key has been admitted its whole day, the next request must be refused; if that refusal only
 * asks for a minute window's wait, it is waited out and the key must still be refused.
 */
async function confirmDayRefused(
  client: PetStoreClient,
  admitted: number,
  windows: number,
  dayRefusalMs: number,
  wait: (ms: number) => Promise<void>,
): Promise<DailyOutcome> {
  let next = await measuringRequest(client);
  if (next.response.status === 429 && refusalWaitMs(next) <= dayRefusalMs) {
    await wait(refusalWaitMs(next) + 20);
    next = await measuringRequest(client);
    windows++;
  }
  if (next.response.status !== 429) return { admitted: admitted + 1, windows, dayRefusal: undefined, overQuota: next, earlyRefusal: false };
  return { admitted, windows, dayRefusal: next, overQuota: undefined, earlyRefusal: false };
}
