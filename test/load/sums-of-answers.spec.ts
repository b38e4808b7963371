/**
 * A run's answers summed in TypeScript (test/load/support/sums-of-answers.ts) as locustfile.py's worker and master
 * sum them, so that what changes answers (the invariance properties) can be judged through the Locust engine's
 * path too: the two sums are the same, and judged from them a legitimate limiter fails nothing while a broken one
 * fails its check.
 */
import { execFile } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { findLocust, pythonOfLocust } from '../../harness/load/engine/locust-binary.ts';
import { LOCUSTFILE_SOURCE } from '../../harness/load/engine/run-plan.ts';
import { RUN_SLACK_MS } from '../../lib/rate-limiter/account.ts';
import type { KeyResult } from '../../harness/load/runner.ts';
import { FixedWindowLimiter, type RateLimiter } from '../../reference-server/limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { judgeSummed } from './support/judge.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { RepeatingRemainingLimiter } from '../judge/repeating-remaining.ts';
import { NoRetryAfterLimiter, OverAdmittingLimiter } from './support/limiters.ts';
import { SIMULATION_START, simulate } from './support/simulate.ts';
import { shippedAsRetry, sumsOfAnswers } from './support/sums-of-answers.ts';

const SCALE = 60;

/** A Free key's answers, asked for faster than its limit (60 a second, at this time scale). */
function answered(limiter: RateLimiter, behaviour: 'compliant' | 'naive' = 'naive', perSecond = 90): KeyResult {
  return simulate({ limiter, plan: 'free', behaviour, perSecond, durationMs: 6_000, latencyMs: 3, stepMs: 2 });
}

/** locustfile.py's own Seen and Sums fed the same answers, as one worker seeing them and its master summing them. */
function summedByLocustfile(result: KeyResult): Promise<unknown> {
  const answers = result.observations.map((o) => [
    SIMULATION_START + o.sentAt,
    SIMULATION_START + o.doneAt,
    o.status,
    shippedAsRetry(o),
    ...[o.limit, o.remaining, o.reset].map((value) => (value === undefined ? null : String(value))),
    o.status === 429 && o.retryAfterMs !== undefined ? String(Math.round(o.retryAfterMs / 1000)) : null,
  ]);
  const script = [
    'import importlib.util, json, sys',
    'spec = importlib.util.spec_from_file_location("locustfile", sys.argv[1]); locustfile = importlib.util.module_from_spec(spec); spec.loader.exec_module(locustfile)',
    `seen, sums = locustfile.Seen(), locustfile.Sums(${RUN_SLACK_MS})`,
    'for answer in sorted(json.load(sys.stdin), key=lambda a: a[1]): seen.answer(0, *answer)',
    'sums.merge("one", seen.drain())',
    'result = sums.result(); print(json.dumps({"windows": result["windows"], "loose": result["loose"], "latency": result["latency"]}))',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = execFile(pythonOfLocust(findLocust()!), ['-c', script, LOCUSTFILE_SOURCE], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify(answers));
  });
}

/** The same answers, each taking a varied fraction of a millisecond longer, and one in fifty 40 ms longer: a spread of latencies. */
function slowed(result: KeyResult): KeyResult {
  return { ...result, observations: result.observations.map((o, index) => ({ ...o, doneAt: o.doneAt + (index % 7) * 1.37 + (index % 50 === 0 ? 40 : 0) })) };
}

/** Sums in one order, whoever listed them. */
function sorted({ windows, loose, latency }: ReturnType<typeof sumsOfAnswers>): ReturnType<typeof sumsOfAnswers> {
  return { windows: [...windows].sort((a, b) => a.limit - b.limit || a.reset - b.reset), loose: [...loose].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), latency: [...latency].sort((a, b) => a.outcome.localeCompare(b.outcome)) };
}

test('a run summed in TypeScript is what locustfile.py ships for it', async () => {
  test.skip(!findLocust() && !process.env.CI, 'Locust is not installed: bash scripts/ensure-locust.sh (npm test runs it)');
  for (const result of [answered(new FixedWindowLimiter({ timeScale: SCALE })), slowed(answered(new SlidingWindowLimiter(SCALE))), answered(new NoRetryAfterLimiter(SCALE), 'compliant')]) {
    const python = (await summedByLocustfile(result)) as ReturnType<typeof sumsOfAnswers>;
    expect(sorted(sumsOfAnswers(result.observations, SIMULATION_START))).toEqual(sorted(python));
  }
});

test('judged from its sums, a legitimate limiter fails nothing and a broken one fails its check', () => {
  expect(judgeSummed(answered(new FixedWindowLimiter({ timeScale: SCALE }))).failed).toEqual([]);
  expect(judgeSummed(answered(new SlidingWindowLimiter(SCALE))).failed).toEqual([]);
  expect(judgeSummed(answered(new OverAdmittingLimiter(SCALE))).failed).toContain('minute-max');
  expect(judgeSummed(answered(new NoRetryAfterLimiter(SCALE))).failed).toContain('retry-after-present');
});

test('asked for less than its limit, a sliding log or a token bucket fails nothing from its sums: no refusal shows the kind, so a repeated Remaining is not checked, and says why', () => {
  for (const fresh of [() => new SlidingWindowLimiter(SCALE), () => new TokenBucketLimiter(SCALE)]) {
    for (const perSecond of [20, 50]) {
      const limiter = fresh();
      const judged = judgeSummed(answered(limiter, 'naive', perSecond));
      expect(judged.failed, `${limiter.constructor.name} at ${perSecond}/s`).toEqual([]);
      expect(judged.account.model).toBe('unseen');
    }
  }
  const steps = judgeSummed(answered(new TokenBucketLimiter(SCALE), 'naive', 20)).verdict('remaining-steps');
  expect(steps.status).toBe('not-checked');
  expect(steps.detail).toContain('no window refused');
  // More than the limit under one Reset of a sliding log: named as not checked, never counted as the most admitted.
  const quota = judgeSummed(answered(new SlidingWindowLimiter(SCALE), 'naive', 50)).verdict('minute-max');
  expect(quota.evidence.join('\n')).toMatch(/\d+ admitted under one Reset, and no window refused/);
});

test('a Remaining said twice fails remaining-steps from its sums once a refusal shows fixed windows, and is only partly checked without one', () => {
  const refusing = judgeSummed(answered(new RepeatingRemainingLimiter(SCALE)));
  expect(refusing.verdict('remaining-steps')).toMatchObject({ status: 'fail', rules: ['RL-6'] });
  expect(refusing.verdict('remaining-steps').evidence[0]).toContain('came twice');
  const under = judgeSummed(answered(new RepeatingRemainingLimiter(SCALE), 'naive', 20));
  expect(under.failed).toEqual([]);
  expect(under.verdict('remaining-steps')).toMatchObject({ status: 'not-checked', detail: expect.stringContaining('came twice') });
});
