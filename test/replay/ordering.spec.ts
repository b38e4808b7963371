/** Causality under concurrency: what uses an id waits for its creation; collection reads and writes, and recorded refusals, keep their order. */
import { expect, test } from '@playwright/test';
import type { RecordedExchange } from '../../harness/replay/exchange.ts';
import { CausalOrder, type CausalNeeds } from '../../harness/replay/ordering.ts';
import { causalNeeds } from '../../harness/replay/replayer.ts';
import { matchOperation } from '../../lib/contract.ts';
import { JsonBody } from '../../lib/json-body.ts';

const needs = (partial: Partial<CausalNeeds>): CausalNeeds => ({ creates: undefined, names: [], collection: undefined, writes: false, credential: undefined, refused: false, ...partial });

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
}

test('a request naming an id waits for the exchange that created it, and only for that one', async () => {
  const order = new CausalOrder();
  const create = order.enter(needs({ creates: '17', collection: '/pets', writes: true }));
  const fetch = order.enter(needs({ names: ['17'] }));
  const other = order.enter(needs({ names: ['5'] }));
  expect(await settled(create.ready)).toBe(true);
  expect(await settled(other.ready)).toBe(true);
  expect(await settled(fetch.ready)).toBe(false);
  create.finish();
  expect(await settled(fetch.ready)).toBe(true);
});

test('lists wait for earlier creations, creations for earlier lists and for each other; lists between creations run together', async () => {
  const order = new CausalOrder();
  const list1 = order.enter(needs({ collection: '/pets' }));
  const list2 = order.enter(needs({ collection: '/pets' }));
  const create1 = order.enter(needs({ collection: '/pets', writes: true, creates: '1' }));
  const create2 = order.enter(needs({ collection: '/pets', writes: true, creates: '2' }));
  const list3 = order.enter(needs({ collection: '/pets' }));
  expect([await settled(list1.ready), await settled(list2.ready)]).toEqual([true, true]);
  expect(await settled(create1.ready)).toBe(false);
  list1.finish();
  expect(await settled(create1.ready)).toBe(false);
  list2.finish();
  expect([await settled(create1.ready), await settled(create2.ready)]).toEqual([true, false]);
  create1.finish();
  expect([await settled(create2.ready), await settled(list3.ready)]).toEqual([true, false]);
  create2.finish();
  expect(await settled(list3.ready)).toBe(true);
});

test('an exchange finished twice (released at its answer, then done after its checks) counts once', async () => {
  const order = new CausalOrder();
  const list1 = order.enter(needs({ collection: '/pets' }));
  const list2 = order.enter(needs({ collection: '/pets' }));
  const create = order.enter(needs({ collection: '/pets', writes: true, creates: '1' }));
  list1.finish();
  list1.finish();
  expect(await settled(create.ready)).toBe(false);
  list2.finish();
  expect(await settled(create.ready)).toBe(true);
});

test('a request refused when recorded waits for the earlier requests with its key, and later ones wait for it', async () => {
  const order = new CausalOrder();
  const before = order.enter(needs({ credential: 'Bearer $PETSTORE_API_KEY_FREE' }));
  const refused = order.enter(needs({ credential: 'Bearer $PETSTORE_API_KEY_FREE', refused: true }));
  const after = order.enter(needs({ credential: 'Bearer $PETSTORE_API_KEY_FREE' }));
  const otherKey = order.enter(needs({ credential: 'Bearer $PETSTORE_API_KEY_PRO' }));
  expect(await settled(otherKey.ready)).toBe(true);
  expect(await settled(refused.ready)).toBe(false);
  before.finish();
  expect(await settled(refused.ready)).toBe(true);
  expect(await settled(after.ready)).toBe(false);
  refused.finish();
  expect(await settled(after.ready)).toBe(true);
});

test('a creation the recording shows refused wrote nothing: it is ordered as a read of the collection', () => {
  const exchange = (status: number): RecordedExchange => ({
    number: 1,
    startedDateTime: undefined,
    recordedMs: undefined,
    method: 'POST',
    url: new URL('http://127.0.0.1/v1/pets'),
    headers: [],
    body: '{}',
    json: new JsonBody('{}'),
    response: { status, headers: {}, body: '{"id":7}', json: new JsonBody('{"id":7}') },
  });
  const createPet = matchOperation('POST', '/pets')?.operation;
  expect(causalNeeds(exchange(201), '/pets', createPet)).toMatchObject({ writes: true, creates: '7', collection: '/pets' });
  expect(causalNeeds(exchange(400), '/pets', createPet)).toMatchObject({ writes: false, creates: undefined, collection: '/pets' });
  expect(causalNeeds(exchange(500), '/pets', createPet)).toMatchObject({ writes: true, creates: undefined });
});
