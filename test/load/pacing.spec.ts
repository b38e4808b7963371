/** The open-model schedule and the two client behaviours, on a virtual clock. */
import { expect, test } from '@playwright/test';
import { ArrivalSchedule } from '../../harness/load/arrival-schedule.ts';
import { KeyDriver } from '../../harness/load/client-behaviour.ts';
import type { Observation, RetryInfo } from '../../harness/load/observation.ts';

function answer(overrides: Partial<Observation>): Observation {
  return {
    operation: 'list',
    intendedAt: 0,
    sentAt: 0,
    doneAt: 0,
    status: 200,
    outcome: 'admitted',
    limit: 60,
    remaining: 30,
    reset: 2_000_000_000,
    retryAfterMs: undefined,
    retry: undefined,
    error: undefined,
    ...overrides,
  };
}

/** The retry a sender's turn sent, handed back with its answer as the engine does (runner.ts). */
function retrySent(turn: ReturnType<KeyDriver['loopTurn']> | undefined): RetryInfo | undefined {
  return turn && 'send' in turn ? turn.send.retry : undefined;
}

test('arrivals are due at start + i / rate, computed from the index so they never drift', () => {
  const schedule = new ArrivalSchedule(3, 1_000, 2_000);
  const times: number[] = [];
  for (let at = schedule.take(); at !== undefined; at = schedule.take()) times.push(at);
  expect(times.map((t) => Math.round(t))).toEqual([1000, 1333, 1667]);
  const long = new ArrivalSchedule(7, 0, 100_000_000);
  let last = 0;
  for (let i = 0; i < 700_000; i++) last = long.take() ?? NaN;
  expect(last).toBeCloseTo(699_999 * (1000 / 7), 3);
});

test('resuming after a wait drops the arrivals inside it and restarts the schedule where the wait ends', () => {
  const schedule = new ArrivalSchedule(10, 0, 10_000);
  schedule.take();
  expect(schedule.resumeAt(1_050)).toBe(10);
  expect(schedule.take()).toBe(1_050);
  expect(schedule.take()).toBeCloseTo(1_150, 6);
  expect(new ArrivalSchedule(1000, 0, 1_000).resumeAt(5_000_000)).toBe(1_000);
});

test('a naive client sends every arrival, whatever it was told', () => {
  const driver = new KeyDriver('naive', new ArrivalSchedule(100, 0, 1_000));
  const sent = driver.due(100, 0);
  expect(sent).toHaveLength(11);
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 30_000, doneAt: 101 }));
  expect(driver.due(200, 0)).toHaveLength(10);
  expect(driver.waiting).toBe(false);
  expect(driver.heldBack).toBe(0);
});

test('a compliant client waits Retry-After plus jitter after a 429, skips the arrivals in the wait, then sends one retry', () => {
  const random = (): number => 0.5;
  const driver = new KeyDriver('compliant', new ArrivalSchedule(100, 0, 10_000), { baseMs: 200, capMs: 5_000, maxAttempts: 8 }, random);
  expect(driver.due(0, 0)).toHaveLength(1);
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 5 }));
  expect(driver.waiting).toBe(true);
  // 1 s of Retry-After and half of the 200 ms first backoff step.
  expect(driver.nextDueAt()).toBe(1_105);
  expect(driver.due(1_000, 0)).toEqual([]);
  const retry = driver.due(1_105, 0);
  expect(retry).toHaveLength(1);
  expect(retry[0]).toEqual({ intendedAt: 1_105, retry: { after: 'refusal', waitedMs: 1_100, retryAfterMs: 1_000 } });
  expect(driver.heldBack).toBe(110);
  // The retry goes alone: the arrivals due while it is out are skipped, until it is answered.
  expect(driver.due(1_115, 0)).toEqual([]);
  driver.settled(answer({ doneAt: 1_120, retry: retry[0]?.retry }));
  expect(driver.due(1_125, 0)).toHaveLength(1);
  expect(driver.heldBack).toBe(111);
});

test("a compliant client's retry after a failure of the target (no answer) is its own backoff, not a 429's wait", () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(100, 0, 10_000), { baseMs: 200, capMs: 5_000, maxAttempts: 8 }, () => 0.5);
  driver.due(0, 0);
  driver.settled(answer({ status: 0, outcome: 'error', doneAt: 5, error: 'ETIMEDOUT: no answer within 0.3 s' }));
  expect(driver.due(105, 0)).toEqual([{ intendedAt: 105, retry: { after: 'failure', waitedMs: 100, retryAfterMs: undefined } }]);
});

test('a compliant client whose pacer comes late after a wait sends the retry alone, never a catch-up burst behind it', () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(100, 0, 10_000), { baseMs: 200, capMs: 5_000, maxAttempts: 8 }, () => 0.5);
  driver.due(0, 0);
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 5 }));
  // The wait ended at 1,105; a busy machine runs the pacer 2 s late. The 200 arrivals it missed are not sent.
  const late = driver.due(3_105, 0);
  expect(late).toEqual([{ intendedAt: 1_105, retry: { after: 'refusal', waitedMs: 1_100, retryAfterMs: 1_000 } }]);
  // Refused again: the arrivals due meanwhile stayed back, so nothing went out into the refusal.
  expect(driver.due(3_150, 0)).toEqual([]);
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 3_160, retry: late[0]?.retry }));
  expect(driver.waiting).toBe(true);
  expect(driver.due(3_500, 0)).toEqual([]);
  expect(driver.inFlight).toBe(0);
});

test('consecutive refused retries back off exponentially; an admission resets the backoff', () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(1_000, 0, 100_000), { baseMs: 100, capMs: 10_000, maxAttempts: 8 }, () => 0.999);
  const waits: number[] = [];
  let now = 0;
  driver.due(now, 0);
  let retry: RetryInfo | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: undefined, doneAt: now, retry }));
    const due = driver.nextDueAt() as number;
    waits.push(Math.round(due - now));
    now = due;
    const sent = driver.due(now, 0);
    expect(sent).toHaveLength(1);
    retry = sent[0]?.retry;
  }
  expect(waits).toEqual([100, 200, 400, 800]);
  driver.settled(answer({ doneAt: now, retry }));
  driver.settled(answer({ status: 429, outcome: 'refused', doneAt: now + 1 }));
  expect(Math.round((driver.nextDueAt() as number) - (now + 1))).toBe(100);
});

test('a compliant client keeps no more requests in flight than X-RateLimit-Remaining allows, but may probe with one', () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(1_000, 0, 10_000));
  expect(driver.due(0, 0)).toHaveLength(1);
  driver.settled(answer({ remaining: 2, reset: 2_000_000_000 }));
  // 2 left: two may go while none is answered; the rest of the burst is held back.
  expect(driver.due(9, 0)).toHaveLength(2);
  expect(driver.heldBack).toBe(7);
  driver.settled(answer({ remaining: 0 }));
  driver.settled(answer({ remaining: 0 }));
  // Nothing in flight: one request goes (it will meet the 429 that tells how long to wait).
  expect(driver.due(10, 0)).toHaveLength(1);
  // Once the window has reset by the target's clock, the budget no longer holds anything back.
  expect(driver.due(20, 2_000_000_000_000)).toHaveLength(10);
});

test('closed-loop senders of one key ("max" rate) after a 429\'s wait: one sends the retry, the others wait for its answer, and resume only once it is admitted', async () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(1, 0, 0), { baseMs: 200, capMs: 5_000, maxAttempts: 8 }, () => 0.5);
  const slots = [0, 1, 2];
  expect(slots.map(() => driver.loopTurn(0))).toEqual(slots.map(() => ({ send: { intendedAt: 0, retry: undefined } })));
  for (const doneAt of [5, 6, 7]) driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt }));
  expect(driver.inFlight).toBe(0);
  expect(slots.map(() => driver.loopTurn(500))).toEqual(slots.map(() => ({ waitMs: 607 })));

  const retry = { after: 'refusal', waitedMs: 1_100, retryAfterMs: 1_000 };
  const turnsAt = (now: number): ReturnType<KeyDriver['loopTurn']>[] => slots.map(() => driver.loopTurn(now));
  const [first, ...others] = turnsAt(1_107);
  expect(first).toEqual({ send: { intendedAt: 1_107, retry } });
  let resumed = 0;
  for (const turn of others) void ('untilAnswered' in turn ? turn.untilAnswered.then(() => resumed++) : expect(turn).toHaveProperty('untilAnswered'));
  await Promise.resolve();
  expect(resumed).toBe(0);
  expect(driver.inFlight).toBe(1);

  // Refused again: the others wake to a new wait, and nothing of theirs went out into the refusal.
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 1_120, retry: retrySent(first) }));
  await new Promise((resolve) => setImmediate(resolve));
  expect(resumed).toBe(2);
  expect(driver.loopTurn(1_130)).toHaveProperty('waitMs');

  // Admitted: the others send again, as closed loops do.
  const [second, ...held] = turnsAt(5_000);
  expect(second).toHaveProperty('send.retry.retryAfterMs', 1_000);
  expect(held.every((turn) => 'untilAnswered' in turn)).toBe(true);
  driver.settled(answer({ doneAt: 5_010, retry: retrySent(second) }));
  expect(turnsAt(5_020)).toEqual(slots.map(() => ({ send: { intendedAt: 5_020, retry: undefined } })));
  expect(driver.inFlight).toBe(3);
});

test('a retry answered late, after a newer retry went out, leaves the newer one outstanding: nothing is sent until that is answered', async () => {
  const driver = new KeyDriver('compliant', new ArrivalSchedule(100, 0, 10_000), { baseMs: 200, capMs: 5_000, maxAttempts: 8 }, () => 0.5);
  expect(driver.due(0, 0)).toHaveLength(1);
  expect(driver.due(10, 0)).toHaveLength(1);
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 15 }));
  const [older] = driver.due(1_115, 0);
  // The second request, sent before the first 429, is refused while the older retry is out: a new wait, a newer retry.
  driver.settled(answer({ status: 429, outcome: 'refused', retryAfterMs: 1_000, doneAt: 1_120 }));
  const [newer] = driver.due(2_320, 0);
  expect(newer?.retry).toBeDefined();
  const turn = driver.loopTurn(2_325);
  let resumed = false;
  if ('untilAnswered' in turn) void turn.untilAnswered.then(() => (resumed = true));
  expect(turn).toHaveProperty('untilAnswered');

  driver.settled(answer({ doneAt: 2_330, retry: older?.retry }));
  await new Promise((resolve) => setImmediate(resolve));
  expect(resumed).toBe(false);
  expect(driver.due(2_340, 0)).toEqual([]);

  driver.settled(answer({ doneAt: 2_350, retry: newer?.retry }));
  await new Promise((resolve) => setImmediate(resolve));
  expect(resumed).toBe(true);
  expect(driver.due(2_360, 0)).toEqual([
    { intendedAt: 2_350, retry: undefined },
    { intendedAt: 2_360, retry: undefined },
  ]);
});
