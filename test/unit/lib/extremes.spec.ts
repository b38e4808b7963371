import { expect, test } from '@playwright/test';
import { largest, smallest } from '../../../lib/extremes.ts';

test('largest and smallest take more values than a call has room for arguments', () => {
  const values = Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 300_001);
  expect(largest(values)).toBe(300_000);
  expect(smallest(values)).toBe(0);
});

test('of no values they answer as Math.max and Math.min do', () => {
  expect(largest([])).toBe(-Infinity);
  expect(smallest([])).toBe(Infinity);
});
