import { expect, test } from '@playwright/test';
import { PetStore } from '../../../reference-server/store.ts';
import { parseLossless } from '../../../lib/lossless-json.ts';

test.describe('PetStore', () => {
  test('hands out unique ids in sequence and finds each pet by its exact id', () => {
    const store = new PetStore();
    const pets = Array.from({ length: 50 }, (_, i) => store.add({ name: `pet ${i}`, categoryId: i, status: 'available' }));
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(50);
    for (const pet of pets) expect(store.get(BigInt(pet.id))).toBe(pet);
  });

  test('ids no pet has are absent, beyond 2^53 and negative included', () => {
    const store = new PetStore();
    store.seed(3);
    for (const id of [0n, -1n, 4n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) expect(store.get(id)).toBeUndefined();
  });

  test('lists the first N pets, with a status only those with it, in creation order', () => {
    const store = new PetStore();
    store.seed(30);
    expect(store.list(20)).toHaveLength(20);
    expect(store.list(100)).toHaveLength(30);
    const sold = store.list(100, 'sold');
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    expect(sold.map((pet) => pet.id)).toEqual([...sold.map((pet) => pet.id)].sort((a, b) => a - b));
    expect(store.list(2, 'sold')).toEqual(sold.slice(0, 2));
  });

  test('the list JSON is the list, and a new pet shows up in the next one', () => {
    const store = new PetStore();
    store.seed(2);
    expect(parseLossless(store.listBody(20, 'sold').toString())).toEqual([]);
    store.add({ name: 'Tom "the cat"', categoryId: 9223372036854775807n, status: 'sold' });
    expect(store.listBody(20, 'sold').toString()).toBe('[{"id":3,"name":"Tom \\"the cat\\"","categoryId":9223372036854775807,"status":"sold"}]');
    expect(parseLossless(store.listBody(20).toString())).toHaveLength(3);
  });

  // How a page's cost grows with the store is measured in bench/server/list-scaling.ts, not timed here.
  test('seeds 1,000,000 pets and still filters and finds them', () => {
    const store = new PetStore();
    store.seed(1_000_000);
    expect(store.size).toBe(1_000_000);
    store.add({ name: 'last', categoryId: 1, status: 'sold' });
    const sold = store.list(100, 'sold');
    expect(sold).toHaveLength(100);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
    expect(store.get(1_000_001n)?.name).toBe('last');
  });
});
