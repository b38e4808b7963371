/**
 * The one window accountant: answers grouped by Limit and Reset, put back in the order they came back within its
 * buffer, refused beyond it, windows closed only once no answer still to come can be in them; and the small rules
 * every part shares with it (which answer was decided after which, how long a refusal asks to wait).
 */
import { expect, test } from '@playwright/test';
import { outcomeOf } from '../../../../lib/rate-limiter/admitted.ts';
import { rulesOf, unmetNeeds, type Uses } from '../../../../lib/checks/registry.ts';
import { decidedAfter } from '../../../../lib/rate-limiter/order.ts';
import { isAdmitted } from '../../../../lib/rate-limiter/reading.ts';
import { longerThanWindow, longestAskedMs, refusalWaitMs } from '../../../../lib/rate-limiter/refusal-wait.ts';
import { OutOfOrderAnswer, WindowAccountant, wholeWindow, type AccountedAnswer } from '../../../../lib/rate-limiter/window-accountant.ts';

const RESET = 4_000_000_060;
const AT = RESET * 1000 - 30_000;

function answer(id: number, at: number, remaining: number, extra: Partial<AccountedAnswer> = {}): AccountedAnswer {
  return { id, outcome: 'admitted', limit: 60, remaining, reset: RESET, sentAt: at - 5, receivedAt: at, ...extra };
}

function timeOrdered(reorderMs = 10_000): { accountant: WindowAccountant; released: number[]; closed: Array<{ reset: number; at: number[] }> } {
  const released: number[] = [];
  const closed: Array<{ reset: number; at: number[] }> = [];
  const accountant = new WindowAccountant({ order: 'time', reorderMs, slackMs: 2_000 }, {
    released: (a) => released.push(a.id),
    closed: (window) => closed.push({ reset: window.reset, at: [...released] }),
  });
  return { accountant, released, closed };
}

test('answers out of order within the buffer leave it in the order they came back', () => {
  const { accountant, released } = timeOrdered();
  for (const [id, at] of [[1, AT], [3, AT + 300], [2, AT + 100], [4, AT + 200]] as const) accountant.add(answer(id, at, 59 - id));
  accountant.finish();
  expect(released).toEqual([1, 2, 4, 3]);
});

test('an answer further back than the buffer is refused, naming it and the buffer', () => {
  const { accountant } = timeOrdered();
  accountant.add(answer(1, AT + 20_000, 10));
  const late = (): void => accountant.add(answer(2, AT, 11));
  expect(late).toThrow(OutOfOrderAnswer);
  expect(late).toThrow('goes back in time 20.0 s before answers already read, more than the 10 s within which answers are put back in order');
});

test('a slow answer is late only by its duration: taken when its request left within the buffer', () => {
  const { accountant, released } = timeOrdered();
  accountant.add(answer(1, AT + 30_000, 10, { sentAt: AT }));
  accountant.add(answer(2, AT + 100, 58, { sentAt: AT + 95 }));
  accountant.finish();
  expect(released).toEqual([2, 1]);
});

test('a window closes once every answer still to come left after its Reset, not when the clock passes it', () => {
  const { accountant, closed } = timeOrdered();
  accountant.add(answer(1, RESET * 1000 - 5_000, 59));
  // The clock passed Reset, but an answer up to the buffer back may still name it.
  accountant.add(answer(2, RESET * 1000 + 3_000, 59, { reset: RESET + 60 }));
  expect(closed).toEqual([]);
  accountant.add(answer(3, RESET * 1000 + 12_500, 58, { reset: RESET + 60 }));
  expect(closed.map((window) => window.reset)).toEqual([RESET]);
});

test('in input order answers are taken as given, and windows are those of Limit and Reset, in the order they opened', () => {
  const accountant = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: 0, keepAnswers: true });
  accountant.add(answer(0, AT + 100, 59));
  accountant.add(answer(1, AT, 58));
  accountant.add(answer(2, AT + 200, 0, { outcome: 'refused', reset: RESET + 60 }));
  const windows = accountant.finish();
  expect(windows.map((window) => [window.reset, window.admitted, window.refused, window.answers.map((a) => a.id)])).toEqual([
    [RESET, 2, 0, [0, 1]],
    [RESET + 60, 0, 1, [2]],
  ]);
  expect(wholeWindow(windows[0]!)).toBe(true);
});

test('windows are those of Limit and Reset whatever their size: a Limit past a million, a Reset past 2^33 seconds, and a small Limit under the same Reset', () => {
  const accountant = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: 0, keepAnswers: true });
  const large = 2 ** 21;
  const far = 2 ** 33 + 60;
  accountant.add(answer(0, AT, 59));
  accountant.add(answer(1, AT, large - 1, { limit: large }));
  accountant.add(answer(2, AT, 58));
  accountant.add(answer(3, AT, large - 2, { limit: large }));
  accountant.add(answer(4, AT, 57, { reset: far }));
  accountant.add(answer(5, AT, 56, { reset: far }));
  const windows = accountant.finish();
  expect(windows.map((window) => [window.limit, window.reset, window.answers.map((a) => a.id)])).toEqual([
    [60, RESET, [0, 2]],
    [large, RESET, [1, 3]],
    [60, far, [4, 5]],
  ]);
});

test("a generator's per-window sums add to the window they name, which then says its order is unknown", () => {
  const accountant = new WindowAccountant({ order: 'time', reorderMs: 10_000, slackMs: 2_000 });
  accountant.add(answer(1, AT, 59));
  accountant.addSums({ limit: 60, reset: RESET, admitted: 3, refused: 1, remaining: [[58, 56, 1]], firstSentAt: AT + 10, lastReceivedAt: AT + 900 });
  const [window] = accountant.finish();
  expect(window).toMatchObject({ admitted: 4, refused: 1, firmAdmitted: 4, fromSums: true });
  expect(wholeWindow(window!)).toBe(true);
});

test('sums naming a Reset a second apart join the open window as answers do: when their first answer left before either end may have come', () => {
  const accountant = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: 0, epochOffsetMs: 0 });
  const sums = (reset: number, firstSentAt: number) => ({ limit: 60, reset, admitted: 2, refused: 0, remaining: [] as Array<[number, number, number]>, firstSentAt, lastReceivedAt: firstSentAt + 100 });
  const window = accountant.addSums(sums(RESET, AT));
  expect(accountant.addSums(sums(RESET + 1, AT + 1_000))).toBe(window);
  // A third Reset is a Reset that keeps moving, and one first named once the end may have come may be a window begun.
  expect(accountant.addSums(sums(RESET - 1, AT + 2_000))).not.toBe(window);
  const late = new WindowAccountant({ order: 'input', reorderMs: 0, slackMs: 0, epochOffsetMs: 0 });
  expect(late.addSums(sums(RESET, AT))).not.toBe(late.addSums(sums(RESET + 1, RESET * 1000 - 500)));
  expect(window.resets).toEqual([RESET, RESET + 1]);
});

test('decided one after the other: certainly beyond the clock skew, maybe within it, unknown in flight or without a request time', () => {
  expect(decidedAfter({ receivedAt: 1_000 }, { sentAt: 2_100 }, 1_000)).toBe('after');
  expect(decidedAfter({ receivedAt: 1_000 }, { sentAt: 1_010 }, 1_000)).toBe('maybe-after');
  expect(decidedAfter({ receivedAt: 1_000 }, { sentAt: 990 }, 1_000)).toBe('unknown');
  expect(decidedAfter({ receivedAt: 1_000 }, { sentAt: undefined }, 0)).toBe('unknown');
});

test('admitted: what the limiter let through; 401s and server errors are no admission', () => {
  expect([200, 201, 400, 404, 429, 401, 403, 500, 503, 0].map(outcomeOf)).toEqual(['admitted', 'admitted', 'admitted', 'admitted', 'refused', 'error', 'error', 'error', 'error', 'error']);
  // The suite's readings mean the same: a 500 does not count towards a day.
  expect([200, 404, 429, 401, 500, 0].map((status) => isAdmitted({ status }))).toEqual([true, true, false, false, false, false]);
});

test('a refusal asks to wait its Retry-After (seconds or an HTTP-date), else its minute Reset; longer than a window is beyond both roundings', () => {
  const quota = { perMinute: 60, perDay: 1_000 };
  const at = RESET * 1000 - 20_000;
  const reading = { status: 429, limit: 60, remaining: 0, reset: RESET, sentAt: at - 5, receivedAt: at };
  expect(refusalWaitMs({ 'retry-after': '7' }, reading, quota, 60_000)).toBe(7_000);
  expect(refusalWaitMs({ 'retry-after': new Date(at + 9_000).toUTCString() }, reading, quota, 60_000)).toBeCloseTo(9_000, -3);
  expect(refusalWaitMs({}, reading, quota, 60_000)).toBe(20_000);
  expect(refusalWaitMs({}, { ...reading, limit: 1_000 }, quota, 60_000)).toBe(60_000);
  expect(longerThanWindow(62_000, 60_000)).toBe(false);
  expect(longerThanWindow(62_001, 60_000)).toBe(true);
  // A ban is read from the later of the two: Retry-After, or Reset from the answer.
  expect(longestAskedMs(7_000, RESET, at)).toBe(20_000);
  expect(longestAskedMs(600_000, RESET, at)).toBe(600_000);
  expect(longestAskedMs(undefined, RESET + 600, at)).toBe(620_000);
});

test('checks are named units: the rules each serves, and what input lacking a need leaves unchecked', () => {
  expect(rulesOf('first-refusal', 'pro')).toEqual(['PLAN-PRO', 'RL-1']);
  expect(rulesOf('remaining-steps')).toEqual(['RL-6']);
  const sums = new Set<Uses>(['firm counts per window', 'refusals with their headers']);
  expect(unmetNeeds('minute-max', sums, "Locust's per-window sums")).toBeUndefined();
  expect(unmetNeeds('reset-stable', sums, "Locust's per-window sums")).toBe("reset-stable needs pairs decided one after the other, not in Locust's per-window sums");
});
