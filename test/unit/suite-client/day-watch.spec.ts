import { expect, test } from '@playwright/test';
import { plans } from '../../../lib/plans.ts';
import { DayWatch } from '../../../specs/support/daily-quota.ts';
import type { Exchange } from '../../../specs/support/exchange.ts';

const FREE = plans.free.documented!;
const START = Date.UTC(2026, 10, 26, 23, 59, 0);

function answer(receivedAt: number, headers: Record<string, string>): Exchange {
  return {
    operation: 'listPets',
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets?limit=1', headers: {} },
    response: { status: 200, headers, body: '[]' },
    json: undefined,
    plan: 'free',
    sentAt: receivedAt,
    receivedAt,
    kind: { kind: 'within' },
  } as Exchange;
}
const minute = (at: number, remaining: number): Exchange => answer(at, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(Math.ceil(at / 1000) + 30) });
const day = (at: number, remaining: number, resetMs: number): Exchange => answer(at, { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)) });

test('passing UTC midnight on the target clock is a sign of a new day; requests counted before it still prove a violation', () => {
  const watch = new DayWatch(FREE, START, 8);
  watch.see([minute(START + 10_000, 40)], 500);
  expect(watch.newDay(1_001, START)).toBeUndefined();
  watch.see([minute(START + 61_000, 59)], 980);
  expect(watch.newDay(1_001, START)).toMatch(/passed UTC midnight \(2026-11-27T00:00:00.000Z\)/);
  expect(watch.newDay(980, START), 'no count after the sign').toBeUndefined();
});

test("the day's Remaining rising back, or its Reset passing, is a sign of a new day (a day from first use)", () => {
  const early = START - 3_600_000;
  const rising = new DayWatch(FREE, early, 8);
  rising.see([day(early + 1_000, 30, early + 600_000), day(early + 2_000, 25, early + 600_000)], 900);
  expect(rising.newDay(1_001, START)).toBeUndefined();
  rising.see([day(early + 3_000, 999, early + 86_400_000)], 970);
  expect(rising.newDay(1_001, START)).toMatch(/Remaining \(999\) after 970 admitted today promises more than 1,000/);

  const passing = new DayWatch(FREE, early, 8);
  passing.see([day(early + 1_000, 30, early + 10_000)], 900);
  passing.see([minute(early + 12_000, 59)], 970);
  expect(passing.newDay(1_001, START)).toMatch(/X-RateLimit-Reset .* passed during the measurement/);
});

test('a minute window that comes back only in part after its wait shows a day that may give back too: a count within what it could give back proves nothing, one beyond it does', () => {
  const watch = new DayWatch(FREE, START - 3_600_000, 8);
  watch.afterWait(minute(START - 3_500_000, 59), 60_000);
  expect(watch.newDay(1_001, START), 'a whole window came back: fixed windows').toBeUndefined();
  watch.afterWait(minute(START - 3_400_000, 3), 60_000);
  expect(watch.newDay(1_001, START)).toMatch(/came back only in part .*Remaining 3 of 60/);
  expect(watch.newDay(1_100, START), 'an hour gives back about 42 of a 1,000-request day, not 100').toBeUndefined();
});

test('answers out of order within one burst are no new day', () => {
  const watch = new DayWatch(FREE, START - 3_600_000, 8);
  watch.see([day(START - 3_599_000, 30, START), day(START - 3_599_000, 35, START)], 900);
  expect(watch.newDay(1_001, START)).toBeUndefined();
});
