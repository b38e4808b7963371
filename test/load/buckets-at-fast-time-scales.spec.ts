/**
 * At a fast time scale a refill interval is a few milliseconds, so a round trip spans several tokens and requests are
 * always in flight together: no pair decided one after the other shows the kind of limiter, and Reset's whole-second
 * rounding is as long as the window. A bucket (GCRA, a sliding counter, a sliding log) must still pass every verdict
 * there, over the limit and under it, and the broken limiters must still fail the rule each breaks over it, with short
 * and long latencies. At time scale 30 with 400-ms answers (issue 38) a fifth of a window is in flight at once: a bucket
 * refilled under the Reset it emptied under is no window seen from its start, and a sliding log's second "0 left" under
 * one Reset no over-admission, on the built-in engine and from Locust's sums alike.
 */
import { expect, test } from '@playwright/test';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { SlidingCounterLimiter } from '../support/sliding-counter-limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { RepeatingRemainingLimiter } from '../judge/repeating-remaining.ts';
import type { CheckId } from '../../harness/load/verdicts/verdict.ts';
import { EarlyRefusingLimiter, OverAdmittingLimiter } from './support/limiters.ts';
import { judge, judgeSummed } from './support/judge.ts';
import { simulate } from './support/simulate.ts';

/** Time scales and answer latencies: short and long answers at 60 and 20, and 400-ms answers in 2-s windows. */
const POINTS = [
  [60, 3],
  [60, 40],
  [20, 3],
  [20, 40],
  [30, 400],
] as const;
/** Over the limit at time scale 60 (a bucket of 60 a second), and one rate under it (1.5 times the limit at 30). */
const OVER = [75, 90, 150, 300] as const;
const UNDER = 45;

function sweep(limiter: (timeScale: number) => RateLimiter, rates: readonly number[], each: (failed: CheckId[], where: string, details: string) => void): void {
  for (const [timeScale, latencyMs] of POINTS) {
    for (const perSecond of rates) {
      const result = simulate({ limiter: limiter(timeScale), plan: 'free', behaviour: 'compliant', perSecond, durationMs: 6_000, latencyMs, stepMs: 2 });
      for (const [engine, judged] of [['built-in', judge(result)], ['from sums', judgeSummed(result)]] as const) {
        const details = JSON.stringify(judged.failed.map((check) => judged.verdict(check)), null, 1);
        each(judged.failed, `time scale ${timeScale}, ${perSecond}/s, ${latencyMs} ms, ${engine}`, details);
      }
    }
  }
}

const legitimate = [
  ['a token bucket', (timeScale: number) => new TokenBucketLimiter(timeScale)],
  ['GCRA', (timeScale: number) => new GcraLimiter(timeScale)],
  ['a sliding counter', (timeScale: number) => new SlidingCounterLimiter(timeScale)],
  ['a sliding log', (timeScale: number) => new SlidingWindowLimiter(timeScale)],
] as const;

for (const [name, limiter] of legitimate) {
  test(`${name} passes at fast time scales, whatever the rate and latency`, () => {
    sweep(limiter, [UNDER, ...OVER], (failed, where, details) => expect(failed, `${where}: ${details}`).toEqual([]));
  });
}

const broken = [
  ['admitting one more than the limit', 'minute-max', (timeScale: number) => new OverAdmittingLimiter(timeScale)],
  ['refusing before the quota is spent', 'first-refusal', (timeScale: number) => new EarlyRefusingLimiter(timeScale)],
  ['saying a Remaining twice in a fixed window', 'remaining-steps', (timeScale: number) => new RepeatingRemainingLimiter(timeScale)],
] as const;

for (const [name, check, limiter] of broken) {
  test(`a limiter ${name} still fails ${check} at fast time scales`, () => {
    sweep(limiter, OVER, (failed, where) => expect(failed, where).toContain(check));
  });
}
