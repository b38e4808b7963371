/**
 * A wait the target asks for that outlasts the test is no evidence against any rule: the test stops waiting
 * before its timeout and ends partly checked, naming the wait (issue 30: RL-3 "Test timeout of 240000ms
 * exceeded" was a failure to measure counted as a violation). Here a reference server whose clock runs at a
 * quarter of real time: its minute window, and so the Retry-After of its 429, lasts four real minutes, longer
 * than a test against a target may take (240 s).
 */
import { expect, test } from '@playwright/test';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const QUARTER_SPEED = 0.25;
/** The suite's start and its reports, beside RL-3's own measurement (a burst and no wait). */
const RUN_MS = 120_000;

test('RL-3 whose 429 asks for a wait longer than the test has left ends partly checked, naming the wait, and never runs into its timeout', async () => {
  test.setTimeout(RUN_MS + 20_000);
  const target = await startVariant({ clockRate: QUARTER_SPEED });
  let run;
  try {
    run = await runSuite({ label: 'out-of-time', baseUrl: target.baseUrl, project: 'rate-limits', titles: [ruleTitle('RL-3')], env: target.clockEnv, timeoutMs: RUN_MS });
  } finally {
    await target.close();
  }
  const rl3 = run.tests.find((each) => each.title.startsWith('RL-3 '));
  expect(rl3, `RL-3 ran (exit ${run.exitCode}):\n${run.output.slice(-2_000)}`).toBeDefined();
  expect(failed(rl3!), `RL-3 must not fail for want of time: ${rl3!.errors.join('\n')}`).toBe(false);
  const unchecked = rl3!.annotations.filter((annotation) => annotation.type === 'unchecked').map((annotation) => annotation.description ?? '');
  expect(unchecked.join('\n')).toMatch(/\[RL-3\] the test's time ran out: waiting \d+ s for the 429's Retry-After/);
  expect(rl3!.durationMs, 'the test stopped instead of waiting').toBeLessThan(60_000);
});
