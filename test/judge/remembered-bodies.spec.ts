/** Answers' bodies are shared by method, path and text: the same text at one path is one body (its tree parsed once). */
import { expect, test } from '@playwright/test';
import { RememberedBodies } from '../../harness/judge/remembered-bodies.ts';

const page = (id: number): string => JSON.stringify([{ id, name: `pet ${id}`, categoryId: 1, status: 'sold' }]);

test('the same text answered to one method and path is one body; another text, path or method is another', () => {
  const bodies = new RememberedBodies();
  const first = bodies.of('GET', '/pets?limit=1', page(1));
  expect(bodies.of('GET', '/pets?limit=1', page(1))).toBe(first);
  expect(bodies.of('GET', '/pets?limit=1', page(1)).value).toEqual([{ id: 1, name: 'pet 1', categoryId: 1, status: 'sold' }]);
  expect(bodies.of('GET', '/pets?limit=1', page(2))).not.toBe(first);
  expect(bodies.of('GET', '/pets?limit=2', page(1))).not.toBe(first);
  expect(bodies.of('POST', '/pets?limit=1', page(1))).not.toBe(first);
});

test('the latest few texts of a path are kept: an older one is a new body again', () => {
  const bodies = new RememberedBodies();
  const first = bodies.of('GET', '/pets', page(1));
  for (let id = 2; id <= 4; id++) bodies.of('GET', '/pets', page(id));
  expect(bodies.of('GET', '/pets', page(1))).toBe(first);
  bodies.of('GET', '/pets', page(5));
  expect(bodies.of('GET', '/pets', page(1))).not.toBe(first);
});
