/** What a 200 to a list query outside the contract may hold: a limit read leniently or ignored, a repeated status read as any of its values, never dropped. */
import { expect, test } from '@playwright/test';
import { classifyRequest } from '../../../lib/contract.ts';
import type { Exchange } from '../../../specs/support/exchange.ts';
import { listSuccessProblems, type SentQuery } from '../../../specs/support/lenient-readings.ts';

const pet = (id: number, status: string) => ({ id, name: `pet ${id}`, categoryId: 1, status });

function listed(pets: ReturnType<typeof pet>[]): Exchange {
  const body = JSON.stringify(pets);
  return {
    operation: 'listPets',
    request: { method: 'GET', url: 'http://127.0.0.1:9/v1/pets', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body },
    json: pets,
    plan: undefined,
    sentAt: 0,
    receivedAt: 0,
    kind: classifyRequest({ operation: 'listPets', method: 'GET', path: '/pets?status=sold&status=sold' }),
  };
}

const rulesOf = (query: SentQuery, pets: ReturnType<typeof pet>[]): string[] => listSuccessProblems(query, listed(pets)).map((problem) => problem.rule);

test('a status given twice is read as either of its values: another status in the answer fails LIST-1, a filter by either holds', () => {
  expect(rulesOf({ status: ['sold', 'sold'] }, [pet(1, 'sold'), pet(2, 'sold')])).toEqual([]);
  expect(rulesOf({ status: ['sold', 'pending'] }, [pet(1, 'sold'), pet(2, 'pending')])).toEqual([]);
  expect(rulesOf({ status: ['sold', 'pending'] }, [pet(1, 'sold'), pet(2, 'available')]), 'the filter dropped').toEqual(['LIST-1']);
  expect(listSuccessProblems({ status: ['sold', 'sold'] }, listed([pet(3, 'available')]))[0]?.message).toContain('got 3 with status "available"');
});

test('a limit given twice may be read as either value or ignored: at most the larger of the two and the default page', () => {
  const pets = (count: number) => Array.from({ length: count }, (_, index) => pet(index + 1, 'available'));
  expect(rulesOf({ limit: ['5', '7'] }, pets(20)), 'ignored: the default page').toEqual([]);
  expect(rulesOf({ limit: ['5', '7'] }, pets(21))).toEqual(['LIST-3']);
  expect(rulesOf({ limit: ['100', '3'] }, pets(100))).toEqual([]);
  expect(rulesOf({ limit: ['7'] }, pets(8)), 'a limit given once, plainly, holds as written').toEqual(['LIST-3']);
});

test('a status outside the contract, alone or beside a valid one, may be ignored', () => {
  expect(rulesOf({ status: 'Sold' }, [pet(1, 'available')])).toEqual([]);
  expect(rulesOf({ status: ['sold', 'lost'] }, [pet(1, 'available')])).toEqual([]);
});
