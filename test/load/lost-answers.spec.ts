/**
 * A request the target admitted whose answer was never read (a timeout, a connection reset, a 5xx without X-RateLimit
 * headers) is in no window's count: the window shows fewer admitted than its limit before its first 429, and a
 * Remaining value skipped. That is no evidence against the limiter, so every legitimate kind must pass with some of its
 * admitted answers lost, on the built-in engine and from Locust's sums, with the lost answers named where a check is
 * left undone; and the broken limiters must still fail what lost answers cannot explain.
 */
import { expect, test } from '@playwright/test';
import type { KeyResult } from '../../harness/load/runner.ts';
import { BROKEN, LEGITIMATE, type Point } from './support/fast-time-scales.ts';
import { EarlyRefusingLimiter } from './support/limiters.ts';
import type { Quota } from '../../lib/plans.ts';
import { FixedWindowLimiter, type RateDecision, type RateLimiter } from '../../reference-server/limiter.ts';
import { judge, judgeSummed, type Judged } from './support/judge.ts';
import { SIMULATION_START, simulate } from './support/simulate.ts';
import { overLimit, scenarioOf } from './support/run.ts';
import { summarise } from '../../harness/load/summary.ts';
import { reportHtml } from '../../harness/load/report-html.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';

/** The run with every `every`-th admitted answer lost: a timeout, no status, no headers. */
function losingEvery(result: KeyResult, every: number): KeyResult {
  let admitted = 0;
  const observations = result.observations.map((o) => (o.outcome === 'admitted' && ++admitted % every === 0 ? { ...o, status: 0, outcome: 'error' as const, limit: undefined, remaining: undefined, reset: undefined, error: 'timeout' } : o));
  return { ...result, observations };
}

/**
 * The run as a client that sends a request again when its connection is reset unanswered sees it: every `every`-th
 * admitted answer never came, and the next request, sent again in its place, says so (sentAgain).
 */
function sentAgainEvery(result: KeyResult, every: number): KeyResult {
  let admitted = 0;
  let lost = false;
  const observations = result.observations.flatMap((o) => {
    if (o.outcome === 'admitted' && ++admitted % every === 0) {
      lost = true;
      return [];
    }
    const again = lost;
    lost = false;
    return again ? [{ ...o, sentAgain: true as const }] : [o];
  });
  return { ...result, observations };
}

function bothEngines(result: KeyResult, timeScale: number): Array<[string, Judged]> {
  return [
    ['built-in', judge(result, undefined, timeScale)],
    ['from sums', judgeSummed(result, undefined, 1, timeScale)],
  ];
}

/** A time scale (with its run's length) and latency where each kind once failed a check for answers it lost. */
const POINTS: ReadonlyArray<readonly [...Point, number]> = [
  [1, 40, 65_000],
  [5, 40, 6_000],
  [30, 400, 6_000],
  [60, 400, 6_000],
];

for (const [name, limiter] of LEGITIMATE) {
  test(`${name} that lost some admitted answers fails and warns nothing`, () => {
    for (const [timeScale, latencyMs, durationMs] of POINTS) {
      for (const perSecond of [45, 90]) {
        const result = simulate({ limiter: limiter(timeScale), plan: 'free', behaviour: 'compliant', perSecond, durationMs, latencyMs, stepMs: 2 });
        for (const every of [7, 29]) {
          for (const [engine, judged] of bothEngines(losingEvery(result, every), timeScale)) {
            const where = `time scale ${timeScale}, ${perSecond}/s, ${latencyMs} ms, every ${every}th admitted answer lost, ${engine}`;
            const details = JSON.stringify([...judged.failed, ...judged.warned].map((check) => judged.verdict(check)), null, 1);
            expect([...judged.failed, ...judged.warned], `${where}: ${details}`).toEqual([]);
          }
        }
      }
    }
  });
}

test('a fixed window that lost answers names them where it leaves the first 429 and the countdown unchecked', () => {
  const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 1 }), plan: 'free', behaviour: 'compliant', perSecond: 90, durationMs: 65_000, latencyMs: 40, stepMs: 2 });
  for (const [engine, judged] of bothEngines(losingEvery(result, 7), 1)) {
    const refusal = judged.verdict('first-refusal');
    expect(refusal.status, engine).toBe('not-checked');
    expect(refusal.detail, engine).toMatch(/refused before 60 were seen admitted not judged: requests of this key got no readable answer while they were open \(window 1: \d+, window 2: \d+; timeouts/);
    const remaining = judged.verdict('remaining-steps');
    expect(remaining.status, engine).toBe('not-checked');
    expect(remaining.evidence.join('\n'), engine).toMatch(/window 1 .*: it jumped from \d+ to \d+, but \d+ requests of this key got no readable answer while this window was open \(timeouts, connections reset, requests sent again after one, 5xx or answers without X-RateLimit headers\): they may have been admitted in it/);
  }
});

test('a request sent again after its connection was reset unanswered counts as a lost answer: the first sending may have been admitted', () => {
  const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 1 }), plan: 'free', behaviour: 'compliant', perSecond: 90, durationMs: 65_000, latencyMs: 40, stepMs: 2 });
  const judged = judge(sentAgainEvery(result, 7), undefined, 1);
  expect(judged.account.windows[0]!.admitted).toBeLessThan(60);
  expect(judged.account.windows[0]!.unread).toBeGreaterThan(0);
  expect([...judged.failed, ...judged.warned], judged.verdict('first-refusal').detail).toEqual([]);
});

test('every legitimate kind whose admitted requests were sometimes sent again after a reset fails nothing: the capacity of a bucket counts their first sendings as lost too', () => {
  for (const [name, limiter] of LEGITIMATE) {
    for (const perSecond of [45, 90]) {
      const result = simulate({ limiter: limiter(1), plan: 'free', behaviour: 'compliant', perSecond, durationMs: 65_000, latencyMs: 40, stepMs: 2 });
      const judged = judge(sentAgainEvery(result, 7), undefined, 1);
      expect([...judged.failed, ...judged.warned], `${name}, ${perSecond}/s: ${judged.failed.map((check) => judged.verdict(check).detail).join(' | ')}`).toEqual([]);
    }
  }
});

test('a token bucket that lost answers while it was emptied names them where it leaves the first 429 unchecked', () => {
  const point = LEGITIMATE.find(([name]) => name === 'a token bucket')!;
  const result = simulate({ limiter: point[1](1), plan: 'free', behaviour: 'compliant', perSecond: 45, durationMs: 65_000, latencyMs: 40, stepMs: 2 });
  const refusal = judge(losingEvery(result, 7), undefined, 1).verdict('first-refusal');
  expect(refusal.status).toBe('not-checked');
  expect(refusal.detail).toMatch(/\d+ requests of this key got no readable answer while the bucket was being emptied .*: they may have been admitted before the first 429\.$/);
});

test('a limiter refusing five early still fails first-refusal when it lost one answer a window', () => {
  // 55 admitted a window, one of them unread: 54 seen, and 54 + 1 is still short of 60.
  const result = simulate({ limiter: new EarlyRefusingLimiter(1), plan: 'free', behaviour: 'compliant', perSecond: 90, durationMs: 65_000, latencyMs: 40, stepMs: 2 });
  for (const [engine, judged] of bothEngines(losingEvery(result, 55), 1)) {
    const refusal = judged.verdict('first-refusal');
    expect(refusal.status, `${engine}: ${refusal.detail}`).toBe('fail');
    expect(refusal.evidence.join('\n'), engine).toMatch(/window 1 .*(first 429 at request 55|54 admissions and \d+ 429s under one Reset.*: refused before 60 were admitted)/);
  }
});

/** Few enough lost answers (one in 97 admitted) that some windows still show the break whole. */
for (const [name, check, limiter] of BROKEN) {
  test(`a limiter ${name} still fails ${check} with an answer lost now and then`, () => {
    for (const [timeScale, latencyMs] of [
      [1, 40],
      [30, 400],
    ] as const) {
      const result = simulate({ limiter: limiter(timeScale), plan: 'free', behaviour: 'compliant', perSecond: 90, durationMs: timeScale === 1 ? 65_000 : 6_000, latencyMs, stepMs: 2 });
      for (const [engine, judged] of bothEngines(losingEvery(result, 97), timeScale)) expect(judged.failed, `time scale ${timeScale}, ${engine}`).toContain(check);
    }
  });
}

/** A fixed window that cuts the key off for the day 20 requests early, its headers still saying the documented day. */
class DayCuttingEarly implements RateLimiter {
  private readonly inner = new FixedWindowLimiter({ timeScale: 60, banAfterRefusals: Number.MAX_SAFE_INTEGER });
  take(subject: string, quota: Quota, now: number): RateDecision {
    const decision = this.inner.take(subject, { ...quota, perDay: quota.perDay - 20 }, now);
    return decision.limit === quota.perDay - 20 ? { ...decision, limit: quota.perDay, remaining: decision.remaining + 20 } : decision;
  }
}

test('a day cut off at its quota, with answers lost before the cutoff, is left unchecked with them named; one cut off 20 early still fails with one lost', () => {
  // At time scale 60 a naive client at 1.1 times the limit spends the free day's 1,000 in about 17 s.
  const run = (limiter: RateLimiter): KeyResult => simulate({ limiter, plan: 'free', behaviour: 'naive', perSecond: 66, durationMs: 19_000, stepMs: 2 });
  for (const [engine, judged] of bothEngines(losingEvery(run(new FixedWindowLimiter({ timeScale: 60 })), 29), 60)) {
    const daily = judged.verdict('daily-quota');
    expect(daily.status, `${engine}: ${daily.detail}`).toBe('not-checked');
    expect(daily.evidence.join('\n'), engine).toMatch(/^day 1: refused for the day after 9\d\d admitted, but \d+ requests of this key got no readable answer before the cutoff came back \(timeouts, .*\): they may have been admitted before it$/);
  }
  // The report says so beside the day's cutoff, and its JSON counts them.
  const lossy = losingEvery(run(new FixedWindowLimiter({ timeScale: 60 })), 29);
  const scenario = scenarioOf([{ plan: 'free', keyNumber: 1, behaviour: 'naive', rate: overLimit(1.1) }], 19_000, 60, 32);
  const summary = summarise(scenario, { description: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', bundled: true, timeScale: 60, timeScaleSource: 'test' }, { startedAtEpochMs: SIMULATION_START, elapsedMs: 19_000, stoppedEarly: undefined, keys: [{ ...lossy, spec: scenario.keys[0]! }] });
  expect(summary.keys[0]!.days[0]!.cutoff!.unreadBefore).toBeGreaterThan(30);
  expect(reportHtml(summary)).toMatch(/after 9\d\d of 1,000, [\d.]+ s into the run, Retry-After [^;<]+; \d+ sent before it got no answer/);
  for (const [engine, judged] of bothEngines(losingEvery(run(new DayCuttingEarly()), 970), 60)) {
    const daily = judged.verdict('daily-quota');
    expect(daily.status, `${engine}: ${daily.detail}`).toBe('fail');
    expect(daily.evidence.join('\n'), engine).toMatch(/^day 1: refused for the day after 979 admitted$/);
  }
});

test('the window a limiter gives its quota back over is learned no longer for answers lost while it refused', () => {
  // While refused, a sliding log admits its Limit a window: the lost admissions among them count, or the window learned
  // from what came back would be longer than the log's, and what it may give back less.
  const result = simulate({ limiter: new SlidingWindowLimiter(5), plan: 'free', behaviour: 'compliant', perSecond: 90, durationMs: 30_000, latencyMs: 40, stepMs: 2 });
  const whole = judge(result, undefined, 5).account.refillWindowMs!;
  const lossy = judge(losingEvery(result, 7), undefined, 5).account.refillWindowMs!;
  expect(whole).toBeGreaterThan(0);
  expect(Math.abs(lossy - whole) / whole).toBeLessThan(0.05);
});

test("a fixed window that lost the first answer of a window is not told as a sliding log: the lost one took the quota's top value", () => {
  // Slower than the limit, so no window refuses and only the pairs across a Reset tell the kind.
  const result = simulate({ limiter: new FixedWindowLimiter({ timeScale: 30 }), plan: 'free', behaviour: 'compliant', perSecond: 25, durationMs: 6_000, latencyMs: 40, stepMs: 2 });
  const whole = judge(result, undefined, 30);
  expect(whole.account.limiter.kind).toMatch(/^fixed-/);
  /** The run with the `nth` admitted answer of each window but the first lost. */
  const losingNthOfWindow = (nth: number): KeyResult => {
    let admittedInWindow = 0;
    let reset: number | undefined;
    const observations = result.observations.map((o) => {
      if (o.outcome !== 'admitted') return o;
      admittedInWindow = o.reset === reset ? admittedInWindow + 1 : 1;
      reset = o.reset;
      return admittedInWindow === nth && o.reset !== result.observations[0]!.reset ? { ...o, status: 0, outcome: 'error' as const, limit: undefined, remaining: undefined, reset: undefined, error: 'timeout' } : o;
    });
    return { ...result, observations };
  };
  const lossy = judge(losingNthOfWindow(1), undefined, 30);
  expect(lossy.account.limiter.kind, lossy.account.limiter.evidence.join('\n')).toBe('unknown');
  expect(lossy.account.limiter.evidence.join('\n'), 'the kind left unknown names the lost answers as why').toMatch(/\d+ pairs of answers that might have shown it each had a request whose answer was lost/);
  expect([...lossy.failed, ...lossy.warned]).toEqual([]);
  // A lost answer blocks only the pairs around it: one lost mid-window leaves the pairs across each Reset to tell it fixed.
  const lostMidWindow = judge(losingNthOfWindow(10), undefined, 30);
  expect(lostMidWindow.account.limiter.kind, lostMidWindow.account.limiter.evidence.join('\n')).toMatch(/^fixed-/);
});
