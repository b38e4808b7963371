/**
 * The Locust engine's verdicts come from what its per-window sums show, never from an order made up for them: what
 * holds whatever the order of a window's answers is judged, and a check that needs that order says not checked,
 * with why. Results made by hand (support/engine-result.ts), judged as `load --verdicts-from` judges them.
 */
import { expect, test } from '@playwright/test';
import type { WindowTally } from '../../harness/load/engine/result.ts';
import { admittedCount, judged, phase, START, window } from './support/engine-result.ts';
import { keyOf, verdictOf } from './support/run.ts';

const WHY = 'order within a window is not measured';

test('a sliding window whose generators were admitted after their own refusals: a repeated Remaining is not checked, never judged on a made-up order', () => {
  const first = window(0, [[59, 30, 1]], 4);
  const late: WindowTally = { ...first, late: { ...phase(2, START + 950, START + 980), remaining: [[30, 30, 1], [29, 29, 1]] } };
  const key = keyOf(judged([late]), 'free #1 naive');
  expect(verdictOf(key, 'remaining-steps')).toMatchObject({ status: 'not-checked' });
  expect(key.windows[0]?.checks.find((check) => check.check === 'remaining-steps')?.message).toContain(WHY);
});

test('which admissions came before a daily cutoff that came while minute windows were still admitting is not checked', () => {
  const minute = window(0, [[59, 0, 1]], 0);
  const dayCut: WindowTally = { ...window(0, [], 3, '86400000'), limit: 1000, reset: Math.ceil(START / 1000) + 3600 };
  dayCut.refused = { ...dayCut.refused, firstSent: START + 200, firstDone: START + 202 };
  const verdict = verdictOf(keyOf(judged([minute, dayCut]), 'free #1 naive'), 'daily-quota');
  expect(verdict.status).toBe('not-checked');
  expect(verdict.detail).toContain(WHY);
});

test('an earlier Reset named by a request sent after a later one came back is a Reset that moved, seen in the sums', () => {
  const earlier = window(0, [[59, 30, 1]], 0);
  // Two seconds apart: one second would be within Reset's resolution, one end two nodes rounded apart.
  const later: WindowTally = { ...window(0, [[29, 0, 1]], 0), reset: earlier.reset + 2 };
  later.admitted = { ...later.admitted, firstSent: START + 100, firstDone: START + 102, lastSent: START + 400, lastDone: START + 402 };
  const key = keyOf(judged([earlier, later]), 'free #1 naive');
  expect(verdictOf(key, 'reset-stable')).toMatchObject({ status: 'fail', rules: ['RL-7'] });
  expect(verdictOf(key, 'reset-stable').evidence[0]).toContain('moved back');
  // Windows split by a moving Reset do not show where in the target's window a refusal came.
  expect(verdictOf(key, 'first-refusal').status).toBe('not-checked');
  // A second apart, as two nodes sharing one counter round one end: no move.
  const rounded = keyOf(judged([earlier, { ...later, reset: earlier.reset + 1 }]), 'free #1 naive');
  expect(verdictOf(rounded, 'reset-stable').status).not.toBe('fail');
});

test('one generator times every answer on one clock: an earlier Reset named by a request it sent 100 ms after a later one came back moved; from two generators, whose clocks may differ by more, it is no evidence', () => {
  const later: WindowTally = { ...window(0, [[59, 30, 1]], 0), reset: window(0, [], 0).reset + 3 };
  later.admitted = { ...later.admitted, firstSent: START + 100, firstDone: START + 102 };
  const earlier = window(0, [[29, 0, 1]], 0);
  earlier.admitted = { ...earlier.admitted, firstSent: START + 150, lastSent: START + 202, lastDone: START + 204 };
  const judgedBy = (generators: string[]) => verdictOf(keyOf(judged([later, earlier], undefined, 'naive', [], [], generators), 'free #1 naive'), 'reset-stable');
  expect(judgedBy(['one'])).toMatchObject({ status: 'fail', rules: ['RL-7'] });
  expect(judgedBy(['one']).evidence[0]).toContain('moved back');
  expect(judgedBy(['a', 'b']).status).toBe('not-checked');
});

test('Resets of one Limit that only move on, window after window, are no evidence, and within a window Reset is not checked', () => {
  const key = keyOf(judged([window(0, [[59, 0, 1]], 3), window(1, [[59, 0, 1]], 3)]), 'free #1 naive');
  expect(verdictOf(key, 'reset-stable')).toMatchObject({ status: 'not-checked', detail: expect.stringContaining('pairs decided one after the other') });
});

test('a window that refused with fewer than its limit admitted, in any order, refused early', () => {
  const remaining: Array<[number, number, number]> = [[59, 5, 1]];
  const key = keyOf(judged([window(0, remaining, 5)]), 'free #1 naive');
  expect(verdictOf(key, 'first-refusal')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE', 'RL-1'] });
  expect(verdictOf(key, 'first-refusal').evidence[0]).toContain(`${admittedCount(remaining)} admissions and 5 429s under one Reset: refused before 60 were admitted`);
});

test("a compliant client's retry refused again in a minute window breaks RL-3, counted by the generator that sent it", () => {
  const first = window(0, [[59, 0, 1]], 1);
  const second = window(1, [[59, 0, 1]], 2);
  second.refused = { ...second.refused, retries: 1 };
  const key = keyOf(judged([first, second], undefined, 'compliant'), 'free #1 compliant');
  expect(verdictOf(key, 'retry-after-admitted')).toMatchObject({ status: 'fail', rules: ['RL-3'] });
});

test("a 429's own Remaining, shipped by the generators, shows in an early refusal's evidence", () => {
  const early = window(0, [[59, 5, 1]], 5);
  early.refused = { ...early.refused, remaining: [[5, 5, 5]] };
  const verdict = verdictOf(keyOf(judged([early]), 'free #1 naive'), 'first-refusal');
  expect(verdict.status).toBe('fail');
  expect(verdict.evidence[0]).toContain('a 429 saying 5 were left');
});

test("the run's chart draws summed windows over the time their answers were sent in", () => {
  const key = keyOf(judged([window(0, [[59, 0, 1]], 6), window(1, [[59, 0, 1]], 6)]), 'free #1 naive');
  const seconds = key.timeline.bucketMs / 1000;
  const drawn = (series: number[]): number => Math.round(series.reduce((sum, perSecond) => sum + perSecond * seconds, 0));
  expect([drawn(key.timeline.admitted), drawn(key.timeline.refused)]).toEqual([120, 12]);
});

test('a daily cutoff after every admission was answered is judged from the sums: exactly the day quota admitted', () => {
  const minutes = Array.from({ length: 16 }, (_, second) => window(second, [[59, 0, 1]], 0));
  const last = window(16, [[59, 20, 1]], 0);
  const dayCut: WindowTally = { ...window(17, [], 3, '3600000'), limit: 1000, reset: Math.ceil(START / 1000) + 3600 };
  const key = keyOf(judged([...minutes, last, dayCut]), 'free #1 naive');
  expect(key.admitted).toBe(1000);
  expect(verdictOf(key, 'daily-quota').status).toBe('pass');
});

test('more than the limit under one Reset of a sliding window is neither failed nor passed from sums: which could have aged out is not known', () => {
  const first = window(0, [[59, 0, 1]], 2);
  const key = keyOf(judged([{ ...first, late: { ...phase(3, START + 950, START + 980), remaining: [[2, 0, 1]] } }]), 'free #1 naive');
  expect(key.windows[0]?.checks.find((check) => check.check === 'minute-max')).toMatchObject({ status: 'not-checked', message: expect.stringContaining(WHY) });
  expect(verdictOf(key, 'minute-max').status).not.toBe('fail');
});

/**
 * One 1-s window whose end two nodes rounded a second apart: from `start` s before its end, the admissions
 * `underLater` said Reset + 1 and the rest Reset, and its three refusals came from the node rounding up.
 */
function roundedApart(admittedRemaining: number[], underLater: (remaining: number) => boolean): WindowTally[] {
  const reset = Math.ceil(START / 1000) + 10;
  const runs = (values: number[]): Array<[number, number, number]> => values.map((value) => [value, value, 1]);
  const at = (values: number[], from: number) => ({ ...phase(values.length, from, from + 400), remaining: runs(values) });
  const refusals = { ...phase(3, START + 600, START + 900), statuses: { '429': 3 }, waits: { '9000': 3 } };
  const none = { ...phase(0, 0, 0), statuses: {}, waits: {} };
  const earlier = admittedRemaining.filter((value) => !underLater(value));
  const later = admittedRemaining.filter(underLater);
  return [
    { key: 0, limit: 60, reset, admitted: at(earlier, START), refused: none, late: { ...phase(0, 0, 0), remaining: [] } },
    { key: 0, limit: 60, reset: reset + 1, admitted: at(later, START + 100), refused: refusals, late: { ...phase(0, 0, 0), remaining: [] } },
  ];
}

test('Resets a second apart, named before either end may have come, are one window in the sums: its count and countdown are whole', () => {
  const countdown = Array.from({ length: 60 }, (_, index) => 59 - index);
  const key = keyOf(judged(roundedApart(countdown, (remaining) => remaining % 7 === 0)), 'free #1 naive');
  for (const check of ['first-refusal', 'minute-max', 'remaining-steps', 'reset-stable'] as const) expect(verdictOf(key, check).status, check).not.toBe('fail');
  expect(verdictOf(key, 'first-refusal').status).toBe('pass');
  // The same two tallies holding one admission too many (a Remaining handed out twice): the window over its quota.
  const over = keyOf(judged(roundedApart([...countdown, 7], (remaining) => remaining % 7 === 0)), 'free #1 naive');
  expect(verdictOf(over, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
});
