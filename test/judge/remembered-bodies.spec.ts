/** Answers' bodies are shared by text: the same text is one body (its tree parsed once), found first among its path's latest. */
import { expect, test } from '@playwright/test';
import { RememberedBodies } from '../../harness/judge/remembered-bodies.ts';

const page = (id: number): string => JSON.stringify([{ id, name: `pet ${id}`, categoryId: 1, status: 'sold' }]);

test('the same text is one body, whatever the method and path; another text is another', () => {
  const bodies = new RememberedBodies();
  const first = bodies.of('GET', '/pets?limit=1', page(1));
  expect(bodies.of('GET', '/pets?limit=1', page(1))).toBe(first);
  expect(bodies.of('GET', '/pets?limit=1', page(1)).value).toEqual([{ id: 1, name: 'pet 1', categoryId: 1, status: 'sold' }]);
  expect(bodies.of('GET', '/pets?limit=1', page(2))).not.toBe(first);
  expect(bodies.of('GET', '/pets?limit=2', page(1))).toBe(first);
  expect(bodies.of('POST', '/pets?limit=1', page(1))).toBe(first);
});

test('a text answered again after many others at its path is the same body', () => {
  const bodies = new RememberedBodies();
  const first = bodies.of('GET', '/pets', page(1));
  for (let id = 2; id <= 50; id++) bodies.of('GET', '/pets', page(id));
  expect(bodies.of('GET', '/pets', page(1))).toBe(first);
});

test('past a million characters of texts the oldest are forgotten: parsed again, a new body', () => {
  const bodies = new RememberedBodies();
  const first = bodies.of('GET', '/pets', page(1));
  const size = page(1).length;
  for (let id = 2; id <= Math.ceil(1_000_000 / size) + 10; id++) bodies.of('GET', `/pets/${id}`, page(id));
  expect(bodies.of('GET', '/pets', page(1))).not.toBe(first);
});
