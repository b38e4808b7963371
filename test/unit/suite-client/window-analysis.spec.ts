import { expect, test } from '@playwright/test';
import { analyseBurst, describesMinuteWindow, MINUTE_WINDOW_MS, remainingProblem, stepBetween, stepsFromFresh, windowKind, type Reading } from '../../../specs/support/window-analysis.ts';

/**
 * A one-second window opened by the probe at T0 (0.3 s past a whole second), ending at T0 + 1000 ms, its
 * Reset rounded up to whole seconds: so it "may have ended" from T0 + 700 ms on.
 */
const T0 = 1_800_000_000_300;
const RESET = Math.ceil((T0 + 1000) / 1000);
const reading = (fields: Partial<Reading> & { at: number }): Reading => ({
  status: 200,
  limit: 60,
  remaining: 59,
  reset: RESET,
  sentAt: fields.at - 2,
  receivedAt: fields.at,
  ...fields,
});

/** A fixed window: `admitted` requests answered in order with Remaining counting down, then 429s. */
function fixedBurst(limit: number, count: number, admittedInWindow = limit, atMs = 100): Reading[] {
  return Array.from({ length: count }, (_, index) => {
    const used = index + 2; // the probe was the first
    return used <= admittedInWindow
      ? reading({ at: T0 + atMs + index, limit, remaining: limit - used })
      : reading({ at: T0 + atMs + index, limit, remaining: 0, status: 429 });
  });
}

const probe = reading({ at: T0 });

test('a fixed window that admits exactly its limit is measured as such', () => {
  const result = analyseBurst({ probe, burst: fixedBurst(60, 59), extra: reading({ at: T0 + 300, remaining: 0, status: 429 }) });
  expect(result).toEqual({ kind: 'measured', admitted: 60, refusedInBurst: 0, extraRefused: true, givenBack: 0, remainingProblem: undefined, resetProblem: undefined });
});

test('a window that admits one request too many is measured with the extra request admitted', () => {
  const result = analyseBurst({ probe, burst: fixedBurst(60, 59), extra: reading({ at: T0 + 300, remaining: 0 }) });
  expect(result).toMatchObject({ kind: 'measured', admitted: 60, extraRefused: false });
});

test('a window that refuses early is measured with the refusals counted', () => {
  const result = analyseBurst({ probe, burst: fixedBurst(60, 59, 58), extra: reading({ at: T0 + 300, remaining: 0, status: 429 }) });
  expect(result).toMatchObject({ kind: 'measured', admitted: 58, refusedInBurst: 2 });
});

test('responses that arrive out of order still pass when each Remaining value came once', () => {
  const burst = fixedBurst(60, 59).reverse();
  expect(analyseBurst({ probe, burst, extra: reading({ at: T0 + 300, status: 429, remaining: 0 }) })).toMatchObject({ remainingProblem: undefined });
});

test('a Remaining value handed out twice is a problem: the countdown names it', () => {
  const burst = fixedBurst(60, 59);
  burst[10] = { ...burst[10]!, remaining: burst[9]!.remaining };
  const result = analyseBurst({ probe, burst, extra: reading({ at: T0 + 300, status: 429, remaining: 0 }) });
  expect(result.kind === 'measured' && result.remainingProblem).toMatch(/each once; 49 came twice$/);
});

test('a Remaining that does not fall at all is a problem', () => {
  expect(remainingProblem(12, [reading({ at: T0, remaining: 12 })])).toBe(
    'expected the 1 admitted responses after Remaining 12 to carry X-RateLimit-Remaining 11 down to 11, each once; 12 came twice',
  );
});

test('a Reset that moves within the window, before the window could have ended, is a problem, not a rollover', () => {
  const burst = fixedBurst(60, 59);
  burst[20] = { ...burst[20]!, reset: RESET + 2 };
  const result = analyseBurst({ probe, burst, extra: reading({ at: T0 + 300, status: 429, remaining: 0 }) });
  expect(result).toMatchObject({ kind: 'measured', resetProblem: `expected X-RateLimit-Reset to stay at ${RESET} within the window, got ${RESET + 2}` });
});

test("a Reset a second on, from answers decided well before the end, is the probe's end as another node rounded it", () => {
  const burst = fixedBurst(60, 59).map((answer, index) => (index % 3 === 0 ? { ...answer, reset: RESET + 1 } : answer));
  const result = analyseBurst({ probe, burst, extra: reading({ at: T0 + 300, status: 429, remaining: 0 }) });
  expect(result).toMatchObject({ kind: 'measured', admitted: 60, remainingProblem: undefined, resetProblem: undefined });
});

test('Resets two seconds apart in one burst are more than one end rounded apart: the Reset moved', () => {
  const burst = fixedBurst(60, 59);
  const early = { ...probe, reset: RESET + 1 };
  burst[20] = { ...burst[20]!, reset: RESET + 2 };
  const result = analyseBurst({ probe: early, burst, extra: reading({ at: T0 + 300, status: 429, remaining: 0 }) });
  expect(result).toMatchObject({ kind: 'measured', resetProblem: `expected X-RateLimit-Reset to stay at ${RESET + 1} within the window, got ${RESET}, ${RESET + 2}` });
});

test('a fixed window that rolls over during the burst is recognised from its headers and not judged', () => {
  // The window ends at T0 + 1000; the burst is slow and its tail lands in a fresh window.
  const burst = Array.from({ length: 59 }, (_, index) => {
    const at = T0 + 10 + index * 20;
    return at < T0 + 1000 ? reading({ at, remaining: 58 - index }) : reading({ at, remaining: 58 - (index - 50), reset: RESET + 1 });
  });
  const result = analyseBurst({ probe, burst, extra: reading({ at: T0 + 1300, remaining: 40, reset: RESET + 1 }) });
  expect(result.kind).toBe('rolled-over');
});

test('a sliding window whose Remaining climbs back as old requests expire is recognised as a new window', () => {
  const slow = Array.from({ length: 59 }, (_, index) => reading({ at: T0 + 400 + index * 10, remaining: index < 40 ? 58 - index : 30, reset: index < 40 ? RESET : RESET + 1 }));
  const result = analyseBurst({ probe, burst: slow, extra: reading({ at: T0 + 1400, status: 429, remaining: 0 }) });
  expect(result.kind).toBe('rolled-over');
});

test('a request after the burst sent once the window had ended by its own Reset is a rollover, not over-admission', () => {
  const result = analyseBurst({ probe, burst: fixedBurst(60, 59), extra: { ...reading({ at: T0 + 1800, remaining: 58 }), sentAt: RESET * 1000 } });
  expect(result.kind).toBe('rolled-over');
});

test('one at a time: same Reset is the same window; a later Reset after the window may have ended is a new one', () => {
  const first = reading({ at: T0 + 10 });
  expect(stepBetween(first, reading({ at: T0 + 20, remaining: 58 }))).toBe('same-window');
  expect(stepBetween(first, reading({ at: T0 + 1500, reset: RESET + 1 }))).toBe('new-window');
  expect(stepBetween(first, reading({ at: T0 + 20, reset: RESET + 5 }))).toBe('reset-moved');
  expect(stepBetween(first, reading({ at: T0 + 20, reset: RESET - 2 }))).toBe('reset-moved');
  // A second back is one end rounded apart by two nodes: Reset is known only to its second.
  expect(stepBetween(first, reading({ at: T0 + 20, reset: RESET - 1 }))).toBe('same-window');
});

const FREE = { perMinute: 60, perDay: 1000 };

test("a Limit tells the windows apart: the plan's minute quota, its day quota, or neither", () => {
  expect(windowKind(reading({ at: T0, limit: 60 }), FREE)).toBe('minute');
  expect(windowKind(reading({ at: T0, limit: 1000, remaining: 940 }), FREE)).toBe('day');
  expect(windowKind(reading({ at: T0, limit: 0, remaining: 0 }), FREE)).toBe('neither');
});

test("only headers of the minute window, with a Reset within a minute and a Remaining below the Limit, say where the minute window stands", () => {
  expect(describesMinuteWindow(reading({ at: T0 }), FREE)).toBe(true);
  const dayWindow = reading({ at: T0, limit: 1000, remaining: 940, reset: Math.ceil((T0 + 20 * 3_600_000) / 1000) });
  expect(describesMinuteWindow(dayWindow, FREE), "the day's window, as the last of two limiters writes it").toBe(false);
  expect(describesMinuteWindow(reading({ at: T0, reset: 60 }), FREE), 'Reset as seconds until the window ends').toBe(false);
  expect(describesMinuteWindow(reading({ at: T0, remaining: 60 }), FREE), 'a Remaining that did not fall for an admitted request').toBe(false);
  expect(describesMinuteWindow(reading({ at: T0, status: 429, remaining: 0 }), FREE)).toBe(true);
});

test('with headers that say nothing of the minute window, a burst is one window while it lasts less than a documented minute from the probe', () => {
  const dayReset = Math.ceil((T0 + 20 * 3_600_000) / 1000);
  const day = (at: number, remaining: number, status = 200): Reading => reading({ at, limit: 1000, remaining, reset: dayReset, status });
  const burst = Array.from({ length: 59 }, (_, index) => day(T0 + 10 + index, 998 - index));
  const measured = analyseBurst({ probe: day(T0, 999), burst, extra: reading({ at: T0 + 100, status: 429, limit: 60, remaining: 0 }), headersTrusted: false });
  expect(measured).toMatchObject({ kind: 'measured', admitted: 60, refusedInBurst: 0, extraRefused: true, remainingProblem: undefined, resetProblem: undefined });
  const slow = analyseBurst({ probe: day(T0, 999), burst, extra: day(T0 + MINUTE_WINDOW_MS, 900), headersTrusted: false });
  expect(slow.kind).toBe('rolled-over');
});

test('one at a time without trusted headers: within a documented minute of the first request every step is the same window, and a Reset that changes moved', () => {
  const secondsUntil = (at: number, reset: number): Reading => reading({ at, reset });
  const steps = stepsFromFresh([secondsUntil(T0, 60), secondsUntil(T0 + 10, 60), secondsUntil(T0 + 1010, 57), secondsUntil(T0 + MINUTE_WINDOW_MS, 60)], false, FREE);
  expect(steps).toEqual(['same-window', 'reset-moved', 'new-window']);
});
