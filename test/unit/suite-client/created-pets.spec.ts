import { expect, test } from '@playwright/test';
import { createdPetsNote } from '../../../specs/reporter/created-pets.ts';
import { countingCreations, createdAnnotation, type CreatedPets } from '../../../specs/support/created-pets.ts';
import type { ReceivedResponse, SentRequest } from '../../../specs/support/exchange.ts';
import { fullestStatus } from '../../../specs/support/store-growth.ts';

const create = (status: string | undefined): SentRequest => ({ method: 'POST', url: 'http://127.0.0.1/v1/pets', headers: {}, body: JSON.stringify({ name: 'x', categoryId: 1, ...(status ? { status } : {}) }) });

test('only creations answered 201 are counted, by the status the new animal holds (the answer first, else what was sent)', async () => {
  const answers: ReceivedResponse[] = [
    { status: 201, headers: {}, body: '{"id":1,"name":"x","categoryId":1,"status":"sold"}' },
    { status: 201, headers: {}, body: '' },
    { status: 400, headers: {}, body: '{"code":"invalid_request","message":"no"}' },
    { status: 201, headers: {}, body: '{"id":3,"name":"x","categoryId":1}' },
  ];
  let index = 0;
  const tally: CreatedPets = new Map();
  const counted = countingCreations({ send: async () => answers[index++]! }, tally);
  await counted.send(create('pending'));
  await counted.send(create('pending'));
  await counted.send(create('pending'));
  await counted.send(create(undefined));
  await counted.send({ method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} });
  expect(Object.fromEntries(tally)).toEqual({ sold: 1, pending: 1, 'no status': 1 });
  expect(createdAnnotation(new Map())).toBeUndefined();
});

test("the verdict's note sums every test's creations by status", () => {
  const note = createdPetsNote([
    { type: 'created-pets', description: '{"available":3,"sold":1}' },
    { type: 'skip', description: 'x' },
    { type: 'created-pets', description: '{"available":2}' },
  ]);
  expect(note).toBe("This run added 6 animals to the target's store (5 available, 1 sold); a store that is never emptied keeps them.");
  expect(createdPetsNote([])).toBeUndefined();
});

test('animals whose status does not matter go to the fullest status; growth to the fullest whose page is not yet full', () => {
  const shown = new Map([['available', 100], ['pending', 40], ['sold', 20]]);
  expect(fullestStatus(shown)).toBe('available');
  expect(fullestStatus(shown, { notFull: true })).toBe('pending');
  expect(fullestStatus(new Map([['available', 2], ['pending', 2], ['sold', 2]])), 'a tie: the contract order').toBe('available');
  expect(fullestStatus(new Map([['available', 100], ['pending', 100], ['sold', 100]]), { notFull: true })).toBeUndefined();
});
