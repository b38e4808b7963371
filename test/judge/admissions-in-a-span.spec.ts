/**
 * RL-6 on admissions judged as a set (harness/judge/admissions-in-a-span.ts): a Remaining that does not fall over
 * admissions answered close together, long before their Reset, fails whatever order and kind of limiter; a sliding
 * counter giving back as its last window fades, admissions without their request's time, and Resets that move (a
 * bucket's, as it spends) are not failed by it.
 */
import { expect, test } from '@playwright/test';
import { AdmissionsInASpan, type SpanAdmission } from '../../harness/judge/admissions-in-a-span.ts';
import type { Contradiction } from '../../harness/judge/contradiction.ts';

const T0 = Date.UTC(2026, 10, 22, 6, 6, 9, 300);
const OPTIONS = { slackMs: 2_000, clockSkewMs: 1_000, reorderMs: 11_000 };

function judged(limit: number, admissions: readonly SpanAdmission[]): Contradiction[] {
  const found: Contradiction[] = [];
  const span = new AdmissionsInASpan(limit, OPTIONS, (contradiction) => found.push(contradiction));
  for (const admission of admissions) span.add(admission);
  span.finish();
  return found;
}

/** `count` admissions 2.5 ms apart, each answered in 1 ms, with what `said` gives the i-th. */
function burst(count: number, said: (i: number) => { remaining: number; reset: number }, timed = true): SpanAdmission[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, ...said(i), sentAt: timed ? T0 + i * 2.5 : undefined, receivedAt: T0 + i * 2.5 + 1 }));
}

const RESET = Math.ceil(T0 / 1000) + 7;

test('a Remaining stuck below the Limit over 60 admissions of one window fails RL-6, with the exchanges that show it', () => {
  const [found, ...more] = judged(60, burst(60, () => ({ remaining: 59, reset: RESET })));
  expect(more).toEqual([]);
  expect(found!.check).toBe('remaining-steps');
  expect(found!.message).toMatch(/^expected X-RateLimit-Remaining to fall with \d+ admissions of Limit 60, answered within 2\.\d s .*every one said 59 or more$/);
  expect(found!.exchanges).toEqual([1]);
});

test('a Remaining equal to the Limit on every admission fails RL-6', () => {
  expect(judged(60, burst(60, () => ({ remaining: 60, reset: RESET }))).map((found) => found.check)).toEqual(['remaining-steps']);
});

test('a correct countdown, seen whole or in part, fails nothing', () => {
  const whole = burst(60, (i) => ({ remaining: 59 - i, reset: RESET }));
  expect(judged(60, whole)).toEqual([]);
  expect(judged(60, whole.filter((_, i) => i % 3 !== 0))).toEqual([]);
  expect(judged(60, [...whole].reverse())).toEqual([]);
});

test('a sliding counter, whose Remaining holds still as its last window fades, fails nothing', () => {
  // A minute's counter of 60 whose last window was full: it fades a request a second. Five seconds into the window
  // (its end, the Reset, 55 s ahead), a request a second keeps Remaining at 4 (3 as it rounds) over 30 admissions.
  const start = T0 - 5_000;
  const admissions: SpanAdmission[] = Array.from({ length: 30 }, (_, i) => {
    const at = T0 + i * 1_000;
    const counted = 60 * (1 - (at - start) / 60_000) + (i + 1);
    return { id: i + 1, remaining: Math.floor(60 - counted), reset: Math.ceil((start + 60_000) / 1000), sentAt: at, receivedAt: at + 1 };
  });
  const said = admissions.map((admission) => admission.remaining);
  expect(Math.max(...said) - Math.min(...said), 'Remaining holds within its rounding').toBeLessThanOrEqual(1);
  expect(judged(60, admissions)).toEqual([]);
});

test('admissions without their request\'s time, or whose Resets lie more than a second apart, are not judged so', () => {
  expect(judged(60, burst(60, () => ({ remaining: 59, reset: RESET }), false))).toEqual([]);
  expect(judged(60, burst(60, (i) => ({ remaining: 59, reset: RESET + 2 * (i % 2) })))).toEqual([]);
});
