/**
 * At a fast time scale a refill interval is a few milliseconds, so a round trip spans several tokens and requests are
 * always in flight together: no pair decided one after the other shows the kind of limiter, and Reset's whole-second
 * rounding is as long as the window. A bucket (GCRA, a sliding counter, a sliding log) must still pass every verdict
 * there, over the limit and under it, and the broken limiters must still fail the rule each breaks over it, with short
 * and long latencies. At time scale 30 with 400-ms answers (issue 38) a fifth of a window is in flight at once: a bucket
 * refilled under the Reset it emptied under is no window seen from its start, and a sliding log's second "0 left" under
 * one Reset no over-admission, on the built-in engine and from Locust's sums alike. Every run is judged at its own
 * time scale, as the load command judges it; the rest of scales 45 and 60 is swept in the field tier
 * (buckets-at-one-second-windows.spec.ts).
 */
import { expect, test } from '@playwright/test';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { BROKEN, GIVING_BACK, OVER, sweep, UNDER, type Point } from './support/fast-time-scales.ts';

/** Time scales and answer latencies: short and long answers at 60 and 20, and 400-ms answers in 2-s windows. */
const POINTS: readonly Point[] = [
  [60, 3],
  [60, 40],
  [20, 3],
  [20, 40],
  [30, 400],
];

for (const [name, limiter] of GIVING_BACK) {
  test(`${name} passes at fast time scales, whatever the rate and latency`, () => {
    sweep(POINTS, limiter, [UNDER, ...OVER], ({ judged, where, details }) => expect([...judged.failed, ...judged.warned], `${where}: ${details}`).toEqual([]));
  });
}

for (const [name, check, limiter] of BROKEN) {
  test(`a limiter ${name} still fails ${check} at fast time scales`, () => {
    sweep(POINTS, limiter, OVER, ({ judged, where }) => expect(judged.failed, where).toContain(check));
  });
}

test('a sliding log sent at its limit at time scale 45 (1.3-s windows) is not failed for what it gives back in the second before its Reset', () => {
  // At 45/s a log refuses almost nothing, and a refused client's whole-second wait carries it past the Reset: nothing
  // shows it gives quota back, and its admissions in the last second before a Reset were once counted as a fixed
  // window's 61st to 70th (40-ms answers), or a 61st before a 429 (3-ms answers, from sums).
  const points: readonly Point[] = [
    [45, 40],
    [45, 3],
  ];
  sweep(points, (timeScale) => new SlidingWindowLimiter(timeScale), [UNDER], ({ latencyMs, engine, judged, where, details }) => {
    expect([...judged.failed, ...judged.warned], `${where}: ${details}`).toEqual([]);
    if (latencyMs === 40 && engine === 'built-in') expect(judged.verdict('minute-max').evidence.join('\n'), where).toMatch(/70 admitted under one Reset, 59 of them back within one window \(1\.3 s at time scale 45\) of its first request: windows of 1\.3 s at time scale 45 are shorter than the Reset rounding plus the clock slack \(2\.0 s\)/);
  });
});
