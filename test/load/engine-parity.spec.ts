/**
 * One verdict, whichever engine: the same scenario against the same kind of target on the built-in engine
 * and on Locust (a master and two workers on this machine, counted per target window in the workers and
 * merged in the master), compared check by check. Targets: correct ones (fixed and sliding windows of 1 s,
 * including one whose window length the load tool is not told) and broken ones, each breaking one rule.
 * Locust comes from scripts/ensure-locust.sh (npm test's pretest); without it these tests are skipped,
 * except in CI, where a missing engine is a failure.
 */
import { expect, test } from '@playwright/test';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { DayIgnoringLimiter, EarlyRefusingLimiter, MovingResetLimiter, NoRetryAfterLimiter, OverAdmittingLimiter } from './support/limiters.ts';
import { closedAfterEach, needLocust } from './support/locust.ts';
import { overLimit, runAgainst, runEngineAgainst, type KeyPlan } from './support/run.ts';
import { alike, statuses } from './support/verdict-parity.ts';

/** The servers' clock: a minute window lasts 1 s. */
const SCALE = 60;
test.describe.configure({ mode: 'serial' });
needLocust();
const keep = closedAfterEach();

async function server(limiter: () => RateLimiter | undefined): Promise<string> {
  const made = limiter();
  const running = await createReferenceServer({ timeScale: SCALE }, made ? { limiter: made } : {});
  keep(running);
  return running.baseUrl;
}

interface Case {
  name: string;
  limiter: () => RateLimiter | undefined;
  keys: KeyPlan[];
  /** What the load tool is told about the target's clock. */
  toldScale: number;
  expected: 'pass' | 'fail';
  /** The check each broken target must fail, on both engines. */
  fails?: string;
  /** A check the target's traffic cannot judge, on both engines. */
  unjudged?: string;
  durationMs?: number;
}

const FREE_COMPLIANT: KeyPlan = { plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.1) };
const PRO_NAIVE: KeyPlan = { plan: 'pro', keyNumber: 1, behaviour: 'naive', rate: overLimit(1.2) };

const CASES: Case[] = [
  { name: 'a correct server', limiter: () => undefined, keys: [FREE_COMPLIANT, PRO_NAIVE], toldScale: SCALE, expected: 'pass' },
  {
    name: 'a correct server whose 1-s windows the tool is not told of (time scale 1 assumed)',
    limiter: () => undefined,
    keys: [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'perSecond', perSecond: 90 } }],
    toldScale: 1,
    expected: 'pass',
  },
  { name: 'a correct sliding-window server', limiter: () => new SlidingWindowLimiter(SCALE), keys: [FREE_COMPLIANT, { ...PRO_NAIVE, plan: 'free', keyNumber: 2, rate: overLimit(1.5) }], toldScale: SCALE, expected: 'pass' },
  { name: 'a server admitting limit+1 per window', limiter: () => new OverAdmittingLimiter(SCALE), keys: [FREE_COMPLIANT], toldScale: SCALE, expected: 'fail', fails: 'minute-max' },
  { name: 'a server refusing five early', limiter: () => new EarlyRefusingLimiter(SCALE), keys: [FREE_COMPLIANT], toldScale: SCALE, expected: 'fail', fails: 'first-refusal' },
  { name: 'a server whose Reset moves within a window', limiter: () => new MovingResetLimiter(SCALE), keys: [FREE_COMPLIANT], toldScale: SCALE, expected: 'fail', fails: 'reset-stable' },
  // Compliant: its requests after its own backoff are no retries of a wait the target gave, so RL-3 is not judged on
  // either engine (it failed by the jitter's luck, wherever a retry landed in the same window).
  { name: 'a server whose 429s lack Retry-After', limiter: () => new NoRetryAfterLimiter(SCALE), keys: [FREE_COMPLIANT], toldScale: SCALE, expected: 'fail', fails: 'retry-after-present', unjudged: 'retry-after-admitted' },
  // More than the day's 1,000 admitted long before the day (24 real minutes at this clock) can have ended: 18.5 s at 1.1x.
  { name: 'a server ignoring the daily quota', limiter: () => new DayIgnoringLimiter(SCALE), keys: [{ ...FREE_COMPLIANT, behaviour: 'naive' }], toldScale: SCALE, expected: 'fail', fails: 'daily-quota', durationMs: 18_500 },
];

for (const scenario of CASES) {
  test(`both engines give the same verdict on every check: ${scenario.name}`, async () => {
    const builtin = await runAgainst(await server(scenario.limiter), scenario.keys, scenario.durationMs ?? 4_000, scenario.toldScale);
    const engine = await runEngineAgainst(await server(scenario.limiter), scenario.keys, scenario.durationMs ?? 4_000, scenario.toldScale);
    expect(alike(engine, builtin), `built-in: ${JSON.stringify(statuses(builtin))}`).toEqual(statuses(builtin));
    for (const summary of [builtin, engine]) {
      expect(summary.status).toBe(scenario.expected);
      if (scenario.fails) expect(summary.keys[0]?.verdicts.find((v) => v.check === scenario.fails)?.status).toBe('fail');
      if (scenario.unjudged) expect(summary.keys[0]?.verdicts.find((v) => v.check === scenario.unjudged)?.status).toBe('not-checked');
    }
    if (scenario.limiter() === undefined) {
      // Counted over both workers: every window that ran out admitted exactly the limit, not a worker's share.
      const ranOut = engine.keys.flatMap((key) => key.windows.filter((w) => w.checks.some((check) => check.check === 'first-refusal')));
      expect(ranOut.length).toBeGreaterThan(0);
      for (const window of ranOut) expect(window.admitted, `window ${window.number}`).toBe(window.limit);
    }
  });
}
