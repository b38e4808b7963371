import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { targetClock, WALL_CLOCK } from '../../../lib/target-clock.ts';
import { spentKeysNote } from '../../../specs/reporter/spent-keys.ts';
import { dayUsedUpEarlier, rememberDayUsedUp } from '../../../specs/support/days-used-up.ts';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { KeyRest, restingOnRefusals } from '../../../specs/support/key-rest.ts';
import { bannedUntil, keyName, SPENT_KEY, spentUntil, watchedKey } from '../../../specs/support/spent-keys.ts';

const refusal = (headers: Record<string, string>): ReceivedResponse => ({ status: 429, headers, body: '{}' });
const request = { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} } as const;

test("a 429 asking for longer than any minute window means the key's day is spent; a minute's refusal does not", () => {
  const before = Date.now();
  expect(spentUntil(refusal({ 'retry-after': '61' }), WALL_CLOCK)).toBeUndefined();
  expect(spentUntil(refusal({ 'retry-after': '62' }), WALL_CLOCK), "a minute window's wait with Reset's and Retry-After's rounding on both ends (longerThanWindow)").toBeUndefined();
  expect(spentUntil(refusal({ 'retry-after': '63' }), WALL_CLOCK)).toBeGreaterThanOrEqual(before + 63_000);
  expect(spentUntil(refusal({ 'retry-after': '3600' }), WALL_CLOCK)).toBeGreaterThanOrEqual(before + 3_600_000);
  expect(spentUntil({ status: 200, headers: { 'retry-after': '3600' }, body: '' }, WALL_CLOCK)).toBeUndefined();
  expect(spentUntil(refusal({}), WALL_CLOCK), 'no Retry-After, no Reset: nothing says how long').toBeUndefined();
});

test('without Retry-After, the X-RateLimit-Reset of the window that refused says how long; a fast clock is read as fast', () => {
  const reset = String(Math.floor(Date.now() / 1000) + 7_200);
  const headers = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset };
  expect(spentUntil(refusal(headers), WALL_CLOCK)).toBeGreaterThan(Date.now() + 7_000_000);
  const fast = targetClock(240, Date.now());
  const until = spentUntil(refusal({ 'retry-after': '86400' }), fast)!;
  expect(until - Date.now(), "a day of a 240-times-faster clock is six real minutes").toBeLessThanOrEqual(360_000);
});

test('only a refusal before anything was admitted counts for a test that spends its own day', async () => {
  const answers = [refusal({ 'retry-after': '90000' }), { status: 200, headers: {}, body: '[]' }, refusal({ 'retry-after': '90000' })];
  const next = (): Transport => {
    let index = 0;
    return { send: async () => answers[index++]! };
  };
  const seen = { spent: 0, admitted: 0 };
  const watch = { spent: () => void seen.spent++, admitted: () => void seen.admitted++ };
  const ownDay = watchedKey(next(), WALL_CLOCK, watch, { untilAdmitted: true });
  for (let sent = 0; sent < 3; sent++) await ownDay.send(request);
  expect(seen).toEqual({ spent: 1, admitted: 1 });
  const anyTime = watchedKey(next(), WALL_CLOCK, watch);
  for (let sent = 0; sent < 3; sent++) await anyTime.send(request);
  expect(seen).toEqual({ spent: 3, admitted: 2 });
});

test('a key is named by its variable and place, never shown', () => {
  expect(keyName(DEMO_KEYS, 'pro', 'demo-pro-2')).toBe('the 2nd key of PETSTORE_API_KEY_PRO');
});

test("the verdict's note names each spent key once, with the latest time it comes back, and when to run again", () => {
  const note = spentKeysNote([
    { type: SPENT_KEY, description: 'the 1st key of PETSTORE_API_KEY_PRO|2026-11-27 00:00 UTC' },
    { type: SPENT_KEY, description: 'the 1st key of PETSTORE_API_KEY_PRO|2026-11-27 00:01 UTC' },
    { type: SPENT_KEY, description: 'the 1st key of PETSTORE_API_KEY_FREE|2026-11-26 23:00 UTC' },
    { type: 'skip', description: 'something else' },
  ]);
  expect(note).toContain('the 1st key of PETSTORE_API_KEY_FREE (back 2026-11-26 23:00 UTC); the 1st key of PETSTORE_API_KEY_PRO (back 2026-11-27 00:01 UTC)');
  expect(note).toMatch(/Run again after 2026-11-27 00:01 UTC\.$/);
  expect(spentKeysNote([{ type: 'skip', description: 'x' }])).toBeUndefined();
});

test("a long 429 whose headers say the day goes on is a ban; one that names the day's end is the day's", () => {
  const free = { perMinute: 60, perDay: 1_000 };
  const nowS = Math.floor(Date.now() / 1000);
  const minuteBan = refusal({ 'retry-after': '600', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowS + 600) });
  expect(bannedUntil(minuteBan, WALL_CLOCK, free)).toBeGreaterThan(Date.now() + 590_000);
  const dayGoesOn = refusal({ 'retry-after': '600', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': String(nowS + 20_000) });
  expect(bannedUntil(dayGoesOn, WALL_CLOCK, free), "the day's Reset lies hours after the wait").toBeDefined();
  const dayEnds = refusal({ 'retry-after': '20000', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowS + 20_000) });
  expect(bannedUntil(dayEnds, WALL_CLOCK, free)).toBeUndefined();
  expect(bannedUntil(refusal({ 'retry-after': '600' }), WALL_CLOCK, free), 'no Limit: nothing tells a ban from the day').toBeUndefined();
  expect(bannedUntil(refusal({ 'retry-after': '30', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowS + 30) }), WALL_CLOCK, free), "a minute's refusal").toBeUndefined();
});

test("a long 429 right after the run was admitted the key's whole day is that day, whatever window its headers name; short of the count it may be a ban", async () => {
  const free = { perMinute: 60, perDay: 1_000 };
  const nowS = Math.floor(Date.now() / 1000);
  // The day's refusal of a server whose headers name the minute: Limit 60, Remaining 20, Reset two seconds away.
  const dayInMinuteHeaders = refusal({ 'retry-after': '20000', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '20', 'x-ratelimit-reset': String(nowS + 2) });
  const admitted = { status: 200, headers: {}, body: '[]' };
  const run = async (admittedBefore: number, untilAdmitted: boolean) => {
    const answers = [admitted, admitted, dayInMinuteHeaders];
    let index = 0;
    const seen = { spent: 0, banned: 0, usedUp: 0 };
    const watch = { admittedBefore, spent: () => void seen.spent++, admitted: () => undefined, banned: () => (seen.banned++, false), usedUp: () => void seen.usedUp++ };
    const watched = watchedKey({ send: async () => answers[index++]! }, WALL_CLOCK, watch, { untilAdmitted, quota: free });
    for (let sent = 0; sent < answers.length; sent++) await watched.send(request);
    return seen;
  };
  expect(await run(998, true), "the daily test's own day: remembered, neither spent before nor banned").toEqual({ spent: 0, banned: 0, usedUp: 1 });
  expect(await run(998, false), 'another test on the key: spent, by this run').toEqual({ spent: 1, banned: 0, usedUp: 1 });
  expect(await run(500, false), 'the count cannot explain it: a ban').toEqual({ spent: 0, banned: 1, usedUp: 0 });
});

test("a run meeting first the refusal an earlier run's count ended the key's day with names it spent, not banned", async () => {
  const free = { perMinute: 60, perDay: 1_000 };
  const nowS = Math.floor(Date.now() / 1000);
  const baseUrl = `http://127.0.0.1:1/v1/${Date.now()}`;
  const dayEnd = Date.now() + 20_000_000;
  rememberDayUsedUp(baseUrl, 'demo-free-1', dayEnd);
  const answer = (retryAfter: number) => refusal({ 'retry-after': String(retryAfter), 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '20', 'x-ratelimit-reset': String(nowS + 2) });
  const meet = async (key: string, retryAfter: number) => {
    const seen = { spent: 0, banned: 0 };
    const watch = { spent: () => void seen.spent++, admitted: () => undefined, banned: () => (seen.banned++, false), usedUpEarlier: (untilMs: number) => dayUsedUpEarlier(baseUrl, key, untilMs, 1_000) };
    await watchedKey({ send: async () => answer(retryAfter) }, WALL_CLOCK, watch, { quota: free }).send(request);
    return seen;
  };
  expect(await meet('demo-free-1', 20_000), 'the wait ends when the remembered day does').toEqual({ spent: 1, banned: 0 });
  expect(await meet('demo-free-1', 7_200), 'a wait that ends at another moment is no day of ours').toEqual({ spent: 0, banned: 1 });
  expect(await meet('demo-free-2', 20_000), 'another key').toEqual({ spent: 0, banned: 1 });
});

test("ERR-3 a spent key's 429 that ends the test inside the transport is in the key's rest first: the next request on the key waits for its Retry-After", async () => {
  const rest = new KeyRest(path.join(mkdtempSync(path.join(tmpdir(), 'petstore-rest-')), 'rest'));
  const ended = new Error('the test ended: the key is spent');
  const watch = { spent: () => { throw ended; }, admitted: () => {} };
  const refusing: Transport = { send: async () => refusal({ 'retry-after': '3600' }) };
  const before = Date.now();
  await expect(watchedKey(restingOnRefusals(refusing, rest, WALL_CLOCK), WALL_CLOCK, watch).send(request)).rejects.toBe(ended);
  expect(rest.untilMs()).toBeGreaterThanOrEqual(before + 3_600_000);
  expect(rest.refusalsInARow(), 'the refusals in a row are the client\'s to count').toBe(0);
});
