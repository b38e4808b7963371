/**
 * A staging is never emptied: after a few runs some lists by status are full, where LIST-7 binds nothing (a new
 * animal may rightly be on another page). The rule is checked on the statuses that are not full, no animal is added
 * to a full one, and only when every status is full is it left unchecked, saying what to do. The rule checked on
 * the one status left, a server that hides new animals failing there, and three certifications of one server in
 * a row: certified-again-and-again.spec.ts (field tier).
 */
import { expect, test } from '@playwright/test';
import { CREATED_PETS } from '../../specs/support/created-pets.ts';
import { EVERY_STATUS_FULL, list7, notes } from './support/populated-store.ts';

test('every status full: LIST-7 is left unchecked, naming the way to check it (a status under 100, or the scope), and nothing is created', async () => {
  test.setTimeout(180_000);
  const test7 = await list7('populated-every-status-full', EVERY_STATUS_FULL);
  expect(test7.status, test7.errors.join('\n')).toBe('passed');
  const [unchecked, ...more] = notes(test7, 'unchecked');
  expect(more).toEqual([]);
  expect(unchecked).toMatch(/^\[LIST-7\] that a created animal is listed by its status: the animals of every status fill a page of 100/);
  expect(unchecked).toContain('keep one status under 100 animals on the target');
  expect(unchecked).toContain('--out-of-scope LIST-7:list');
  expect(notes(test7, CREATED_PETS), 'no animal added to a full list').toEqual([]);
});
