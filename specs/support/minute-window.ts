/**
 * Measuring a minute window: find a fresh one, fill it at once, and send one more. Every wait comes from the
 * target's own Retry-After or X-RateLimit-Reset. A window that ends in the middle of the burst is recognised
 * from the headers and the measurement is taken again.
 */
import { sleep } from '../../lib/backoff.ts';
import { retryAfterMs } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { analyseBurst, readingOf, type BurstAnalysis } from './window-analysis.ts';

/** The request a measurement spends: the cheapest documented one. */
export const measuringRequest = (client: PetStoreClient): Promise<Exchange> => client.listPets({ limit: 1 });

export const BURST_CONCURRENCY = 24;
const MAX_PROBES = 6;
const MAX_ATTEMPTS = 5;
/** Added to every wait for a window's end: timers and clocks are not exact. */
const SLACK_MS = 20;

export interface WindowOptions {
  /** The longest single wait for a window to end or a 429 to lapse that the test can afford. */
  maxWaitMs: number;
  wait?: (ms: number) => Promise<void>;
}

export type Fresh = { probe: Exchange } | { unavailable: string };

/** How long a 429 asks to wait: Retry-After, else until Reset, else a second. */
export function refusalWaitMs(exchange: Exchange): number {
  const retryAfter = retryAfterMs(exchange.response.headers['retry-after'], exchange.receivedAt);
  if (retryAfter !== undefined) return retryAfter;
  const reset = readingOf(exchange).reset;
  return reset !== undefined ? Math.max(0, reset * 1000 - Date.now()) : 1000;
}

/**
 * One request at the start of a window: its Remaining is the Limit minus one. Until one is found, waits for
 * the current window to end (Reset), or for a refusal to lapse (Retry-After); one request per window.
 */
export async function freshWindow(client: PetStoreClient, { maxWaitMs, wait = sleep }: WindowOptions): Promise<Fresh> {
  for (let probes = 0; probes < MAX_PROBES; probes++) {
    const probe = await measuringRequest(client);
    const reading = readingOf(probe);
    let waitMs: number;
    if (probe.response.status === 429) {
      waitMs = refusalWaitMs(probe);
    } else if (reading.limit === undefined || reading.remaining === undefined || reading.reset === undefined) {
      return { unavailable: 'the target sends no readable X-RateLimit-Limit/-Remaining/-Reset, so the start of a window cannot be found' };
    } else if (reading.remaining === reading.limit - 1) {
      return { probe };
    } else {
      waitMs = Math.max(0, reading.reset * 1000 - Date.now());
    }
    if (waitMs > maxWaitMs) {
      return { unavailable: `the key is refused or its window lasts another ${Math.ceil(waitMs / 1000)} s, longer than this test can wait (its daily quota may be used up)` };
    }
    await wait(waitMs + SLACK_MS);
  }
  return { unavailable: `no fresh window after ${MAX_PROBES} probes spaced by the target's Reset` };
}

/** Sends `count` requests with at most `concurrency` in flight; answers in the order they were sent. */
export async function sendAtOnce(client: PetStoreClient, count: number, concurrency = BURST_CONCURRENCY): Promise<Exchange[]> {
  const results: Exchange[] = new Array(count);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      results[index] = await measuringRequest(client);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results;
}

export interface MinuteMeasurement {
  analysis: Extract<BurstAnalysis, { kind: 'measured' }>;
  probe: Exchange;
  burst: Exchange[];
  extra: Exchange;
  /** Measurements discarded because the window rolled over in the middle, with why. */
  retaken: string[];
}

export type MinuteResult = MinuteMeasurement | { unavailable: string };

/**
 * Fills one fresh window with `limit` requests (the probe and limit-1 at once) and sends one more after
 * them. Retakes the measurement when the window rolled over during it.
 */
export async function measureMinuteWindow(client: PetStoreClient, limit: number, options: WindowOptions): Promise<MinuteResult> {
  const retaken: string[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const fresh = await freshWindow(client, options);
    if ('unavailable' in fresh) return fresh;
    const started = Date.now();
    const burst = await sendAtOnce(client, limit - 1);
    const extra = await measuringRequest(client);
    const analysis = analyseBurst({ probe: readingOf(fresh.probe), burst: burst.map(readingOf), extra: readingOf(extra) });
    if (analysis.kind === 'measured') return { analysis, probe: fresh.probe, burst, extra, retaken };
    retaken.push(`${analysis.reason} (the burst of ${limit} took ${Date.now() - started} ms)`);
    if (extra.response.status === 429) await (options.wait ?? sleep)(Math.min(options.maxWaitMs, refusalWaitMs(extra)) + SLACK_MS);
  }
  return { unavailable: `the window rolled over during each of ${MAX_ATTEMPTS} bursts, so ${limit} requests could not be sent within one window: ${retaken.join('; ')}` };
}
