/** A list's query, read once per path: what follows the first "?", a query a gateway's log redacted whole marked as such. */
import { expect, test } from '@playwright/test';
import { listQuery } from '../../../lib/list-query.ts';

test('a list query is what follows the first "?", each status and limit in order; a path read again gives the same reading', () => {
  expect(listQuery('/pets?status=sold&limit=3&status=pending')).toEqual({ redacted: false, statuses: ['sold', 'pending'], limits: ['3'] });
  expect(listQuery('/pets?status=sold?limit=5')).toEqual({ redacted: false, statuses: ['sold?limit=5'], limits: [] });
  expect(listQuery('/pets')).toEqual({ redacted: false, statuses: [], limits: [] });
  expect(listQuery('/pets?limit=3')).toBe(listQuery('/pets?limit=3'));
});

test('a query redacted whole says so, in either spelling', () => {
  for (const path of ['/pets?<redacted>', '/pets?%3Credacted%3E', '/pets?limit=3&<redacted>']) expect(listQuery(path).redacted, path).toBe(true);
  expect(listQuery('/pets?name=<redacted>').redacted).toBe(false);
});
