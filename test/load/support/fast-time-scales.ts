/**
 * The sweep of limiters over time scales and answer latencies that the fast-time-scale tests share: each point's run
 * simulated once per rate, and judged as the load command judges it at that time scale, on the built-in engine and
 * from Locust's sums. Legitimate limiters of every kind the spec allows, and broken ones each breaking one rule.
 */
import type { RateLimiter } from '../../../reference-server/limiter.ts';
import { FixedWindowLimiter } from '../../../reference-server/limiter.ts';
import type { CheckId } from '../../../harness/load/verdicts/verdict.ts';
import { GcraLimiter } from '../../support/gcra-limiter.ts';
import { SlidingCounterLimiter } from '../../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../../support/token-bucket-limiter.ts';
import { RepeatingRemainingLimiter } from '../../judge/repeating-remaining.ts';
import { EarlyRefusingLimiter, OverAdmittingLimiter } from './limiters.ts';
import { judge, judgeSummed, type Judged } from './judge.ts';
import { simulate } from './simulate.ts';

/** A time scale and an answer latency (ms). */
export type Point = readonly [timeScale: number, latencyMs: number];

/** Over the limit at time scale 60 (a bucket of 60 a second), and one rate under it (1.5 times the limit at 30, the limit at 45). */
export const OVER = [75, 90, 150, 300] as const;
export const UNDER = 45;

export type Engine = 'built-in' | 'from sums';

export interface Judgement {
  timeScale: number;
  latencyMs: number;
  perSecond: number;
  engine: Engine;
  judged: Judged;
  /** Where, for a failed expectation's message. */
  where: string;
  /** The failed and warned verdicts in full, for a failed expectation's message. */
  details: string;
}

export function sweep(points: readonly Point[], limiter: (timeScale: number) => RateLimiter, rates: readonly number[], each: (judgement: Judgement) => void): void {
  for (const [timeScale, latencyMs] of points) {
    for (const perSecond of rates) {
      const result = simulate({ limiter: limiter(timeScale), plan: 'free', behaviour: 'compliant', perSecond, durationMs: 6_000, latencyMs, stepMs: 2 });
      for (const [engine, judged] of [['built-in', judge(result, undefined, timeScale)], ['from sums', judgeSummed(result, undefined, 1, timeScale)]] as const) {
        const details = JSON.stringify([...judged.failed, ...judged.warned].map((check) => judged.verdict(check)), null, 1);
        each({ timeScale, latencyMs, perSecond, engine, judged, where: `time scale ${timeScale}, ${perSecond}/s, ${latencyMs} ms, ${engine}`, details });
      }
    }
  }
}

/** The legitimate kinds that give their quota back bit by bit. */
export const GIVING_BACK = [
  ['a token bucket', (timeScale: number) => new TokenBucketLimiter(timeScale)],
  ['GCRA', (timeScale: number) => new GcraLimiter(timeScale)],
  ['a sliding counter', (timeScale: number) => new SlidingCounterLimiter(timeScale)],
  ['a sliding log', (timeScale: number) => new SlidingWindowLimiter(timeScale)],
] as const;

export const LEGITIMATE = [['a fixed window', (timeScale: number) => new FixedWindowLimiter({ timeScale })], ...GIVING_BACK] as const;

export const BROKEN = [
  ['admitting one more than the limit', 'minute-max', (timeScale: number) => new OverAdmittingLimiter(timeScale)],
  ['refusing before the quota is spent', 'first-refusal', (timeScale: number) => new EarlyRefusingLimiter(timeScale)],
  ['saying a Remaining twice in a fixed window', 'remaining-steps', (timeScale: number) => new RepeatingRemainingLimiter(timeScale)],
] as const satisfies ReadonlyArray<readonly [string, CheckId, (timeScale: number) => RateLimiter]>;
