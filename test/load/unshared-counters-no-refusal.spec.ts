/**
 * Two gateway nodes each counting a key in its own memory, loaded at 1.5 times the quota, refuse nothing: no refusal
 * shows the limiter's kind, and with every answer in flight with another neither engine can tell it from the answers'
 * order. More admitted under one Reset than its limit, each answered well before that Reset, still breaks the quota:
 * no kind of limiter gives anything back so far ahead of its Reset (firmlyPastLimit, as the judge holds it). Both the
 * built-in engine's verdicts and those from Locust's sums fail it (issue 38), while every kind of legitimate limiter
 * loaded alike still passes.
 */
import { expect, test } from '@playwright/test';
import { followDays } from '../../harness/load/days.ts';
import type { KeyResult } from '../../harness/load/runner.ts';
import { judgeKey } from '../../harness/load/verdicts/judge-key.ts';
import { accountKey } from '../../harness/load/windows.ts';
import type { LimiterKind } from '../../lib/rate-limiter/kinds.ts';
import { FixedWindowLimiter, type RateLimiter } from '../../reference-server/limiter.ts';
import { ClockWindowLimiter } from '../support/clock-window-limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { judge, judgeSummed } from './support/judge.ts';
import { UnsharedCountersLimiter } from './support/limiters.ts';
import { SIMULATION_START, simulate } from './support/simulate.ts';

/** 15-s windows: Free's 60 a window is 4 a second, and 1.5 times it 6. */
const SCALE = 4;

/** A Free key asked for `perSecond`, each answer taking 400 ms: always in flight with the next, so none is ordered. */
function answered(limiter: RateLimiter, perSecond: number, latencyMs = 400): KeyResult {
  return simulate({ limiter, plan: 'free', behaviour: 'compliant', perSecond, durationMs: 32_000, latencyMs, stepMs: 5 });
}

test('two nodes counting a key apart at 1.5 times its quota refuse nothing, and the quota still fails, on the built-in engine and from sums', () => {
  const result = answered(new UnsharedCountersLimiter(SCALE, 0), 6);
  expect(result.refused).toBe(0);
  for (const [engine, judged] of [['built-in', judge(result)], ['sums, one generator', judgeSummed(result)], ['sums, two generators', judgeSummed(result, SIMULATION_START, 2)]] as const) {
    expect(judged.account.model, engine).toBe('unseen');
    const quota = judged.verdict('minute-max');
    expect(quota, engine).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
    expect(quota.evidence[0], engine).toMatch(/: \d+ admitted under one Reset, each answered more than 2\.0 s before it, .*; limit 60$/);
  }
});

test('whatever kind of limiter the answers are read as, even one giving quota back bit by bit, the count well before Reset fails the quota', () => {
  const result = answered(new UnsharedCountersLimiter(SCALE, 0), 6);
  const read = accountKey(result.observations, 'free', SIMULATION_START);
  const days = followDays(result.observations, 'free', SIMULATION_START, read.banLike);
  const context = { freshKeys: true, startedAtEpochMs: SIMULATION_START, elapsedMs: result.observations.at(-1)!.doneAt, timeScale: SCALE };
  for (const kind of ['fixed-first-use', 'bucket', 'sliding-log', 'sliding-counter', 'unknown'] satisfies LimiterKind[]) {
    const account = { ...read, limiter: { ...read.limiter, kind } };
    const quota = judgeKey(result, account, days, context).verdicts.find((verdict) => verdict.check === 'minute-max')!;
    expect(quota, kind).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
    expect(quota.evidence.join('\n'), kind).toContain('each answered more than 2.0 s before it');
  }
});

test('every kind of legitimate limiter, loaded alike with or without refusals, fails nothing', () => {
  const kinds = [
    () => new FixedWindowLimiter({ timeScale: SCALE }),
    () => new ClockWindowLimiter(SCALE),
    () => new TokenBucketLimiter(SCALE),
    () => new GcraLimiter(SCALE),
    () => new SlidingCounterLimiter(SCALE),
    () => new SlidingWindowLimiter(SCALE),
  ];
  for (const fresh of kinds) {
    for (const perSecond of [3, 6, 12]) {
      for (const latencyMs of [2, 400]) {
        const what = `${fresh().constructor.name} at ${perSecond}/s, ${latencyMs} ms an answer`;
        const result = answered(fresh(), perSecond, latencyMs);
        expect(judge(result).failed, `${what}, built-in`).toEqual([]);
        expect(judgeSummed(result).failed, `${what}, from sums`).toEqual([]);
      }
    }
  }
});
