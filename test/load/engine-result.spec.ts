/**
 * Reading the Locust engine's result back, without running Locust: a petstore-result.json as the master
 * writes it (every generator's answers summed per key and per target window) judged by the built-in verdicts.
 */
import { expect, test } from '@playwright/test';
import { judged, window } from './support/engine-result.ts';
import { keyOf, verdictOf } from './support/run.ts';

test('windows that admit exactly the limit, summed over generators, pass', () => {
  const summary = judged([window(0, [[59, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]);
  const key = keyOf(summary, 'free #1 naive');
  // Sums hold no order: which request the first 429 answered is not known, only that the limit was admitted.
  expect(key.windows.map((w) => [w.admitted, w.refused, w.firstRefusalAt])).toEqual([[60, 6, undefined], [60, 6, undefined]]);
  for (const check of ['minute-max', 'first-refusal', 'remaining-steps', 'refusal-headers', 'headers-on-every-answer'] as const) expect(verdictOf(key, check).status, check).toBe('pass');
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
  expect(verdictOf(key, 'refusal-headers').status).toBe('fail');
  expect(verdictOf(key, 'refusal-headers').evidence[0]).toContain('RL-1 × 4');
});

test("a result that is not this version's, or of another export, is one clear error", () => {
  expect(() => judged([], 'petstore-locust-result/1')).toThrow(/was not written by this version's locustfile.py/);
  expect(() => judged([{ ...window(0, [[59, 0, 1]], 0), key: 7 }])).toThrow(/answers for key 7/);
});
