/**
 * Deliberately broken targets must be flagged, each for the rule it breaks; a legitimate variant (sliding
 * windows) must pass. Servers run in-process with a broken limiter injected, or behind the fault proxy.
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { progressLine } from '../../harness/load/progress.ts';
import type { Progress } from '../../harness/load/runner.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { createReferenceServer, type RunningServer } from '../../reference-server/server.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { DayIgnoringLimiter, OverAdmittingLimiter } from './support/limiters.ts';
import { keyOf, overLimit, runAgainst, verdictOf } from './support/run.ts';

const SCALE = 60;
let servers: RunningServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serverWith(limiter: RateLimiter | undefined): Promise<RunningServer> {
  const server = await createReferenceServer({ timeScale: SCALE }, limiter ? { limiter } : {});
  servers.push(server);
  return server;
}

test('a target admitting limit+1 per window is flagged under PLAN-FREE, in the live view already', async () => {
  const server = await serverWith(new OverAdmittingLimiter(SCALE));
  let last: Progress | undefined;
  const summary = await runAgainst(server.baseUrl, [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.1) }], 3_500, SCALE, 32, DEMO_KEYS, { onProgress: (progress) => (last = progress), progressIntervalMs: 500 });
  expect(last && progressLine(last)).toMatch(/QUOTA BROKEN in [1-9]\d* of \d+ windows/);
  const key = keyOf(summary, 'free #1 compliant');
  expect(verdictOf(key, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
  // Windows of 1 s at time scale 60: only what came back within one of a window's first request is counted against every kind.
  expect(verdictOf(key, 'minute-max').evidence[0]).toContain('61 admitted under one Reset within one window (1.0 s at time scale 60) of its first request, before any kind of limiter can have given one back; limit 60');
  expect(summary.status).toBe('fail');
  expect(summary.plans[0]?.status).toBe('fail');
});

test('a target whose 429s lack Retry-After is flagged under RL-1', async () => {
  const server = await serverWith(undefined);
  const proxy = await startFaultProxy(server.baseUrl, {
    response: (response) => {
      if (response.status !== 429) return response;
      const { 'retry-after': _dropped, ...headers } = response.headers;
      return { ...response, headers };
    },
  });
  try {
    const summary = await runAgainst(proxy.baseUrl, [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.1) }], 3_500, SCALE);
    const key = keyOf(summary, 'free #1 compliant');
    expect(verdictOf(key, 'retry-after-present').status).toBe('fail');
    expect(verdictOf(key, 'retry-after-present').evidence[0]).toContain('RL-1');
    // The quota itself held: the verdict says which rule broke, not that everything did.
    expect(verdictOf(key, 'minute-max').status).toBe('pass');
    expect(summary.status).toBe('fail');
  } finally {
    await proxy.close();
  }
});

test('a target ignoring the daily limit is flagged once more than 1,000 are admitted within a day', async () => {
  const server = await serverWith(new DayIgnoringLimiter(SCALE));
  const summary = await runAgainst(server.baseUrl, [{ plan: 'free', keyNumber: 1, behaviour: 'naive', rate: overLimit(1.1) }], 18_500, SCALE);
  const key = keyOf(summary, 'free #1 naive');
  expect(key.admitted).toBeGreaterThan(1_000);
  expect(verdictOf(key, 'daily-quota')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
  expect(verdictOf(key, 'minute-max').status).toBe('pass');
});

test('a legitimate sliding-window target passes', async () => {
  const server = await serverWith(new SlidingWindowLimiter(SCALE));
  const summary = await runAgainst(
    server.baseUrl,
    [
      { plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.1) },
      { plan: 'free', keyNumber: 2, behaviour: 'naive', rate: overLimit(1.5) },
    ],
    4_000,
    SCALE,
  );
  expect(summary.keys.flatMap((key) => key.verdicts.filter((v) => v.status === 'fail').map((v) => `${key.label} ${v.check}: ${v.detail} ${v.evidence[0] ?? ''}`))).toEqual([]);
  expect(summary.status).toBe('pass');
});
