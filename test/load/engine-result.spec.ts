/**
 * Reading the Locust engine's result back, without running Locust: a petstore-result.json as the master
 * writes it (every generator's answers summed per key and per target window) judged by the built-in verdicts.
 */
import { expect, test } from '@playwright/test';
import type { LooseTally } from '../../harness/load/engine/result.ts';
import { judged, phase, START, window } from './support/engine-result.ts';
import { keyOf, verdictOf } from './support/run.ts';

test('windows that admit exactly the limit, summed over generators, pass', () => {
  const summary = judged([window(0, [[59, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]);
  const key = keyOf(summary, 'free #1 naive');
  // Sums hold no order: which request the first 429 answered is not known, only that the limit was admitted.
  expect(key.windows.map((w) => [w.admitted, w.refused, w.firstRefusalAt])).toEqual([[60, 6, undefined], [60, 6, undefined]]);
  for (const check of ['minute-max', 'first-refusal', 'remaining-steps', 'retry-after-present', 'retry-after-format', 'remaining-value', 'reset-value', 'rate-limit-headers-present'] as const) expect(verdictOf(key, check).status, check).toBe('pass');
  expect(verdictOf(key, 'reset-stable')).toMatchObject({ status: 'not-checked', detail: expect.stringContaining('order within a window is not measured') });
  expect(summary.status).toBe('pass');
});

test('Remaining values handed out to two generators are an over-admission and a broken countdown', () => {
  const summary = judged([window(0, [[59, 31, 1], [30, 30, 2], [29, 13, 1], [12, 12, 2], [11, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]);
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
  expect(verdictOf(key, 'minute-max').evidence[0]).toContain('62 admitted');
  expect(verdictOf(key, 'remaining-steps').evidence[0]).toContain('came twice');
  expect(summary.status).toBe('fail');
});

test('429s without Retry-After, summed over generators, break RL-1', () => {
  const summary = judged([window(0, [[59, 0, 1]], 4, '-')]);
  const key = keyOf(summary, 'free #1 naive');
  expect(verdictOf(key, 'retry-after-present').status).toBe('fail');
  expect(verdictOf(key, 'retry-after-present').evidence[0]).toContain('RL-1 × 4');
});

test("a summed window's 429s are held to the rules a 429 shows on what the sums say: a Reset before they all left breaks RL-7 for them all, one before only the last left for one", () => {
  const before = window(0, [[59, 0, 1]], 6);
  const allLate = keyOf(judged([{ ...before, reset: Math.floor(START / 1000) - 60 }]), 'free #1 naive');
  expect(verdictOf(allLate, 'reset-value').evidence).toEqual([expect.stringMatching(/^RL-7 × 6: X-RateLimit-Reset \d+ is not a plausible Unix time/)]);
  // The refusals left over 8 s: a Reset 4 s before the first left fits it (a clock's skew), not the last.
  const spread = { ...before, reset: Math.floor(START / 1000) - 4, refused: { ...before.refused, ...phase(6, START, START + 8_000), statuses: { '429': 6 } } };
  expect(verdictOf(keyOf(judged([spread]), 'free #1 naive'), 'reset-value').evidence).toEqual([expect.stringMatching(/^RL-7 × 1: /)]);
});

test("a summed window's Retry-After as the generators read it, and its Limit against the plan, each count as many 429s as carried them", () => {
  const unreadable = { ...window(0, [[59, 0, 1]], 4, 'x:soon'), limit: 61 };
  const key = keyOf(judged([unreadable]), 'free #1 naive');
  expect(verdictOf(key, 'retry-after-format').evidence).toEqual(['RL-2 × 4: Retry-After "soon" is neither delta-seconds nor an HTTP-date']);
  expect(verdictOf(key, 'rate-limit-headers-present').evidence).toEqual(expect.arrayContaining([expect.stringMatching(/^RL-5 × 4: X-RateLimit-Limit is 61/)]));
});

test('answers no window holds are read as the sums the generators shipped: counted, charted over when they were sent, no answer made up for them', () => {
  const noHeaders = { limit: null, remaining: null, reset: null };
  const loose: LooseTally[] = [
    { key: 0, status: 503, retry: false, wait: '-', headers: noHeaders, ...phase(3, START + 100, START + 300), statuses: { '503': 3 } },
    { key: 0, status: 429, retry: false, wait: '-', headers: noHeaders, ...phase(2, START + 700, START + 800), statuses: { '429': 2 } },
  ];
  const summary = judged([window(0, [[59, 0, 1]], 4)], undefined, 'naive', loose);
  const key = keyOf(summary, 'free #1 naive');
  expect([key.sent, key.admitted, key.refused, key.errors]).toEqual([69, 60, 6, 3]);
  expect(key.statusCounts).toMatchObject({ '503': 3, '429': 6 });
  // The two loose 429s lacked Retry-After and the X-RateLimit headers, and the 503s the headers: counted from their sums.
  expect(verdictOf(key, 'retry-after-present').evidence).toEqual([expect.stringMatching(/^RL-1 × 2: /)]);
  // Their headers missing is rate-limit-headers-present's finding, on every answer alike: judged there once.
  expect(verdictOf(key, 'rate-limit-headers-present').evidence[0]).toMatch(/^5 answers lacked/);
  expect(key.timeline.errors.reduce((sum, perSecond) => sum + perSecond * (key.timeline.bucketMs / 1000), 0)).toBeCloseTo(3);
  expect(key.windows[0]?.errors).toBe(3);
});

test("a result that is not this version's, or of another export, is one clear error", () => {
  expect(() => judged([], 'petstore-locust-result/1')).toThrow(/was not written by this version's locustfile.py/);
  expect(() => judged([{ ...window(0, [[59, 0, 1]], 0), key: 7 }])).toThrow(/answers for key 7/);
});

test("a key's latency percentiles come from the latencies the master bucketed, never from a mean made to stand for each answer", () => {
  const latency = [{ key: 0, outcome: 'admitted' as const, micros: [[2_000, 54], [40_000, 6]] as Array<[number, number]> }, { key: 0, outcome: 'refused' as const, micros: [[1_500, 6]] as Array<[number, number]> }];
  const key = keyOf(judged([window(0, [[59, 0, 1]], 6)], undefined, 'naive', [], latency), 'free #1 naive');
  // Each bucket at its middle (2,000 µs holds 2,000–2,099): the tenth that took 40 ms is the tail, not the mean's 5.8 ms.
  const { admitted, refused } = key.latency;
  expect([admitted.count, refused.count]).toEqual([60, 6]);
  expect(admitted.p50).toBeCloseTo(2.05, 1);
  expect(admitted.p99).toBeCloseTo(40.5, 1);
  expect(refused.p50).toBeCloseTo(1.55, 1);
});
