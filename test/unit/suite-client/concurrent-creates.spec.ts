/** CREATE-5's batches: how many creates were in flight together, and the key's room for another batch. */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import type { TargetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import { BATCH_SIZE, roomForAnotherBatch, sendBatch, type Batch } from '../../../specs/support/concurrent-creates.ts';
import type { Exchange, ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { steppedClock } from './fake-target.ts';

const START_MS = 1_800_000_000_000;

function created(id: number, remaining: number, resetMs: number): ReceivedResponse {
  const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetMs / 1000) };
  return { status: 201, headers, body: JSON.stringify({ id, name: 'conformance', categoryId: 1, status: 'available' }) };
}

function clientOf(transport: Transport, clock: TargetClock, timeLeftMs = Number.POSITIVE_INFINITY): PetStoreClient {
  return new PetStoreClient({
    transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-business-1',
    plan: 'business',
    judge: new RuleJudge(test.info(), 'CREATE-5', new Redactor(DEMO_KEYS)),
    politeness: 'wait',
    timeLeftMs: () => timeLeftMs,
    clock,
  });
}

/** A batch whose answers carry `remaining` and a Reset `resetInMs` ahead. */
function answeredBatch(remaining: number, resetInMs: number): Batch {
  const exchanges = Array.from({ length: BATCH_SIZE }, (_, n) => ({ response: created(n, remaining + n, START_MS + resetInMs) }) as Exchange);
  return { exchanges, inFlight: BATCH_SIZE };
}

test('a batch answered only once all of it was sent was in flight together, all of it', async () => {
  const { clock, advance } = steppedClock(START_MS);
  const waiting: Array<() => void> = [];
  let next = 0;
  const together: Transport = {
    send: () =>
      new Promise((resolve) => {
        const id = ++next;
        waiting.push(() => resolve(created(id, 900, START_MS + 60_000)));
        if (waiting.length === BATCH_SIZE) {
          advance(5);
          for (const answer of waiting) answer();
        }
      }),
  };
  const batch = await sendBatch(clientOf(together, clock));
  expect(batch.exchanges.map((exchange) => exchange.response.status)).toEqual(Array(BATCH_SIZE).fill(201));
  expect(batch.inFlight).toBe(BATCH_SIZE);
});

test('another batch goes after a short pause while the key has room for it, after its Reset when not, and not at all past the test\'s time', async () => {
  const unused: Transport = { send: () => Promise.reject(new Error('no request is sent')) };
  const roomy = steppedClock(START_MS);
  expect(await roomForAnotherBatch(clientOf(unused, roomy.clock), answeredBatch(BATCH_SIZE, 60_000), 1)).toBeUndefined();
  expect(roomy.clock.now() - START_MS, 'a pause of the first backoff step at most, and the timers\' slack').toBeLessThan(250 + 100);

  const tight = steppedClock(START_MS);
  expect(await roomForAnotherBatch(clientOf(unused, tight.clock), answeredBatch(5, 30_000), 1)).toBeUndefined();
  expect(tight.clock.now() - START_MS, 'until the Reset of the lowest Remaining').toBeGreaterThanOrEqual(30_000);

  const late = steppedClock(START_MS);
  const reason = await roomForAnotherBatch(clientOf(unused, late.clock, 10_000), answeredBatch(5, 30_000), 1);
  expect(reason).toContain('X-RateLimit-Remaining: 5');
  expect(late.clock.now(), 'nothing waited').toBe(START_MS);
});
