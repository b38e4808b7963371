/**
 * Measuring a minute window: find a fresh one, fill it at once, and send one more. Every wait comes from the
 * target's own Retry-After or X-RateLimit-Reset. A window that ends in the middle of the burst is recognised
 * from the headers and the measurement is taken again.
 */
import { retryAfterMs } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { brokenBy, type Broken } from './target-broke.ts';
import { analyseBurst, readingOf, type BurstAnalysis } from './window-analysis.ts';

/** The request a measurement spends: the cheapest documented one. */
export const measuringRequest = (client: PetStoreClient): Promise<Exchange> => client.listPets({ limit: 1 });

export const BURST_CONCURRENCY = 24;
/**
 * Probes for a fresh window before giving up. A sliding window frees one second's requests per Reset, and each
 * probe is a request of its own, so a key used over several seconds before needs several probes.
 */
const MAX_PROBES = 12;
const MAX_ATTEMPTS = 5;
/** Real milliseconds added to every wait for a window's end: timers are not exact. */
const SLACK_MS = 20;

/** Durations here are the target's (lib/target-clock.ts): what its Reset and Retry-After speak of. */
export interface WindowOptions {
  /** The longest single wait for a window to end or a 429 to lapse that the test can afford, in target time. */
  maxWaitMs: number;
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

export type Fresh = { probe: Exchange } | { unavailable: string } | Broken;

/** How long a 429 asks to wait: Retry-After, else until Reset, else a second. */
export function refusalWaitMs(exchange: Exchange): number {
  const retryAfter = retryAfterMs(exchange.response.headers['retry-after'], exchange.receivedAt);
  if (retryAfter !== undefined) return retryAfter;
  const reset = readingOf(exchange).reset;
  return reset !== undefined ? Math.max(0, reset * 1000 - exchange.receivedAt) : 1000;
}

type Probe = { fresh: Exchange } | { waitMs: number; probe: Exchange } | Broken;

/** One request: at the start of a window (Remaining = Limit - 1), or how long to wait for the next window. */
async function probeOnce(client: PetStoreClient): Promise<Probe> {
  const probe = await measuringRequest(client);
  const reading = readingOf(probe);
  if (probe.response.status === 429) {
    if (probe.response.headers['retry-after'] === undefined) return brokenBy('RL-1', 'expected a 429 to carry Retry-After, got none', probe);
    return { waitMs: refusalWaitMs(probe), probe };
  }
  if (reading.limit === undefined || reading.remaining === undefined || reading.reset === undefined) {
    return brokenBy('RL-4', 'expected readable X-RateLimit-Limit, -Remaining and -Reset on an admitted response, so the start of a window can be found; got none or unreadable ones', probe);
  }
  if (reading.remaining === reading.limit - 1) return { fresh: probe };
  return { waitMs: Math.max(0, reading.reset * 1000 - probe.receivedAt), probe };
}

/**
 * Why no probe found a fresh window although each waited for the last one's Reset. A Remaining that stayed
 * at the limit on every admitted probe never falls (RL-6); one below the limit may be another client of the
 * key or a sliding window, which the suite cannot tell from a broken server, so the test cannot measure.
 */
function noFreshWindow(probes: readonly Exchange[]): { unavailable: string } | Broken {
  const admitted = probes.map((probe) => ({ probe, reading: readingOf(probe) })).filter(({ reading }) => reading.status !== 429);
  const stuck = admitted.filter(({ reading }) => reading.limit !== undefined && reading.remaining !== undefined && reading.remaining >= reading.limit);
  if (admitted.length > 0 && stuck.length === admitted.length) {
    const { probe, reading } = stuck.at(-1)!;
    return brokenBy(
      'RL-6',
      `expected X-RateLimit-Remaining below X-RateLimit-Limit once a request is admitted, got ${reading.remaining} of ${reading.limit} on each of ${admitted.length} admitted requests spaced by the target's own Reset: it never falls, so no window can be measured`,
      probe,
    );
  }
  return { unavailable: `no fresh window after ${probes.length} probes spaced by the target's Reset (Remaining was below the limit minus one each time: another client of the key, or a window that does not end at its Reset)` };
}

/**
 * Probes until a request finds a fresh window, then runs `then` on it (inside `alone`, with the probe, so no
 * other burst delays it). Between probes it waits for the window to end (Reset) or a refusal to lapse
 * (Retry-After): one request per window.
 */
async function inFreshWindow<T>(client: PetStoreClient, options: WindowOptions, then: (probe: Exchange) => Promise<T>): Promise<T | { unavailable: string } | Broken> {
  const { maxWaitMs, wait = client.clock.sleep, alone = together } = options;
  const probes: Exchange[] = [];
  // All waits together stay within twice the longest single one: the test's time is bounded, whatever the target says.
  let waitedMs = 0;
  while (probes.length < MAX_PROBES) {
    const outcome = await alone(async () => {
      const probe = await probeOnce(client);
      return 'fresh' in probe ? { done: await then(probe.fresh) } : probe;
    });
    if ('done' in outcome) return outcome.done;
    if ('broken' in outcome) return outcome;
    probes.push(outcome.probe);
    if (outcome.waitMs > maxWaitMs) {
      return {
        unavailable: `the key is refused or its window lasts another ${Math.ceil(outcome.waitMs / 1000)} s, longer than this test can wait (its daily quota may be used up)`,
      };
    }
    if (waitedMs + outcome.waitMs > 2 * maxWaitMs) break;
    waitedMs += outcome.waitMs;
    await wait(outcome.waitMs + client.clock.toTargetMs(SLACK_MS));
  }
  return noFreshWindow(probes);
}

/** A request at the start of a fresh window (see inFreshWindow). */
export function freshWindow(client: PetStoreClient, options: WindowOptions): Promise<Fresh> {
  return inFreshWindow(client, options, async (probe) => ({ probe }));
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

export type MinuteResult = MinuteMeasurement | { unavailable: string } | Broken;

/**
 * Fills one fresh window with `limit` requests (the probe and limit-1 at once) and sends one more after
 * them. Retakes the measurement when the window rolled over during it.
 */
export async function measureMinuteWindow(client: PetStoreClient, limit: number, options: WindowOptions): Promise<MinuteResult> {
  const retaken: string[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const measured = await inFreshWindow(client, options, async (probe) => {
      const started = Date.now();
      const burst = await sendAtOnce(client, limit - 1);
      return { probe, burst, extra: await measuringRequest(client), tookMs: Date.now() - started };
    });
    if ('unavailable' in measured || 'broken' in measured) return measured;
    const { probe, burst, extra, tookMs } = measured;
    const analysis = analyseBurst({ probe: readingOf(probe), burst: burst.map(readingOf), extra: readingOf(extra) });
    if (analysis.kind === 'measured') return { analysis, probe, burst, extra, retaken };
    retaken.push(`${analysis.reason} (the burst of ${limit} took ${tookMs} ms)`);
    if (extra.response.status === 429) await (options.wait ?? client.clock.sleep)(Math.min(options.maxWaitMs, refusalWaitMs(extra)) + client.clock.toTargetMs(SLACK_MS));
  }
  return { unavailable: `the window rolled over during each of ${MAX_ATTEMPTS} bursts, so ${limit} requests could not be sent within one window: ${retaken.join('; ')}` };
}
