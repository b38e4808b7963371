/**
 * Creating animals concurrently, and knowing that they were: a batch of creates sent at once over connections
 * opened ahead (the `apiConnections` option of the `api` fixture), how many of them were in flight together by
 * their own exchanges' times (lib/in-flight.ts), and whether the key has room for another batch. Through
 * Playwright's request context, 20 creates sent together reached a proxy spread over up to 75 ms, some answered
 * before others arrived (3 in flight at the most there, while their exchanges said 20); over sockets opened ahead
 * the proxy saw 14 to 20, also beside two CPU burners.
 */
import { backoffDelayMs } from '../../lib/backoff.ts';
import { peakInFlight } from '../../lib/in-flight.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { waitWithinTest } from './minute-window.ts';
import { newPet } from './pets.ts';

/** Creates sent at once in one batch. */
export const BATCH_SIZE = 20;

/**
 * How many creates of a batch must have been in flight together (each sent before the first of them was answered)
 * for the batch to count as concurrent creation: half the batch. A batch that fell short says nothing of ids handed
 * out concurrently.
 */
export const CONCURRENT_CREATES = 10;

/** Batches sent at the most before the rule is left partly checked. */
export const MAX_BATCHES = 3;

export interface Batch {
  exchanges: Exchange[];
  /** The most of its creates in flight together. */
  inFlight: number;
}

export async function sendBatch(api: PetStoreClient): Promise<Batch> {
  // Every create is settled before the batch is: one that could not complete does not leave the others running past the test.
  const settled = await Promise.allSettled(Array.from({ length: BATCH_SIZE }, () => api.createPet(newPet())));
  const failed = settled.find((create) => create.status === 'rejected');
  if (failed) throw failed.reason;
  const exchanges = settled.flatMap((create) => (create.status === 'fulfilled' ? [create.value] : []));
  return { exchanges, inFlight: peakInFlight(exchanges) };
}

/**
 * Waits before another batch as a good client does, and until the key's window has room for the whole batch (the
 * lowest X-RateLimit-Remaining of the last one's answers; other tests share the key): a batch that meets 429s is
 * neither polite nor concurrent, its refused creates going out again one by one. Returns why no other batch can be
 * sent within the test's time, or undefined once it can.
 */
export async function roomForAnotherBatch(api: PetStoreClient, last: Batch, batchesSent: number): Promise<string | undefined> {
  const windows = last.exchanges.flatMap((exchange) => {
    const headers = readRateLimit(exchange.response.headers);
    return headers ? [headers] : [];
  });
  const tightest = windows.reduce<(typeof windows)[number] | undefined>((low, window) => (low === undefined || window.remaining < low.remaining ? window : low), undefined);
  const untilReset = tightest !== undefined && tightest.remaining < BATCH_SIZE ? Math.max(0, tightest.reset * 1000 - api.clock.now()) : 0;
  const jitter = api.clock.toTargetMs(backoffDelayMs(batchesSent, undefined));
  return waitWithinTest(api, untilReset + jitter, untilReset > 0 ? `room for ${BATCH_SIZE} more creates on the key (X-RateLimit-Remaining: ${tightest?.remaining})` : 'the pause before another batch');
}

/** Ids that more than one created animal carries, each with the exchanges that show it. */
export function repeatedIds(exchanges: readonly Exchange[], idOf: (exchange: Exchange) => string | undefined): Map<string, Exchange[]> {
  const byId = new Map<string, Exchange[]>();
  for (const exchange of exchanges) {
    const id = idOf(exchange);
    if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), exchange]);
  }
  return new Map([...byId].filter(([, carriers]) => carriers.length > 1));
}
