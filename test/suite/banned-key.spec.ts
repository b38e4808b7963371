/**
 * A temporary ban ("repeated requests after a 429 can lead to a temporary ban of the API key"): the reference
 * server bans a key refused ten times in one window. Its 429 asks for longer than a minute while its headers name
 * the minute window, so it is no day used up: a ban the tests have time for is waited out and the tests pass; a
 * longer one is reported as a ban, never as "Spent before this run (daily quota used up)".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { FixedWindowLimiter } from '../../reference-server/limiter.ts';
import { failed, ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { BUNDLED_CLOCK_RATE } from '../../specs/support/settings.ts';
import { startVariant } from './support/variant-target.ts';

/** Two Business keys keep Business's day out of the run (its daily test then needs no key of the functional tests). */
const KEYS: KeysByPlan = { free: ['demo-free-1'], pro: [], business: ['demo-business-1', 'demo-business-2'], enterprise: [] };
const TITLES = [ruleTitle('RL-5', 'X-RateLimit-Limit for a Free key'), ruleTitle('PLAN-FREE')];

const reportOf = (label: string): ConformanceReport => JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;

/**
 * Sends on the key until the server bans it: a minute's quota, then ten refusals and more, all at once (a minute of
 * the fast clock lasts a quarter of a second, and a new one forgives the refusals).
 */
async function ban(baseUrl: string, key: string): Promise<void> {
  let banned = false;
  for (let round = 0; round < 20 && !banned; round++) {
    const bodies = await Promise.all(Array.from({ length: 100 }, async () => (await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).text()));
    banned = bodies.some((body) => body.includes('banned'));
  }
  expect(banned, 'the server banned the key').toBe(true);
}

async function runBanned(label: string, banMinutes: number) {
  // A fast clock, as the bundled server's: the ban's Retry-After speaks of that clock, so even a short ban asks for
  // much longer than a minute, as a real one does.
  const target = await startVariant({ limiter: new FixedWindowLimiter({ banMinutes }), clockRate: BUNDLED_CLOCK_RATE });
  try {
    await ban(target.baseUrl, 'demo-free-1');
    // The ban spent part of the key's day, as another client would have: the key is not fresh.
    const run = await runSuite({ label, baseUrl: target.baseUrl, keys: KEYS, quotaTests: true, titles: TITLES, allReporters: true, env: { ...target.clockEnv, PETSTORE_FRESH_KEYS: '0' } });
    return { run, report: reportOf(label) };
  } finally {
    await target.close();
  }
}

test('a ban shorter than the tests may wait is waited out: the Free tests pass, and no key is called spent', async () => {
  test.setTimeout(240_000);
  // Two hours of the server's, 30 real seconds: still on when the suite's first request comes.
  const { run, report } = await runBanned('banned-key-waited', 120);
  expect(run.tests.filter(failed).map((item) => `${item.title}: ${item.errors.join(' ')}`), run.output.slice(-3_000)).toEqual([]);
  expect(run.tests.map((item) => `${item.title.split(' ')[0]} ${item.status}`).sort()).toEqual(['PLAN-FREE passed', 'PLAN-FREE passed', 'RL-5 passed']);
  const throttled = run.tests.flatMap((item) => item.annotations).filter((annotation) => annotation.type === 'throttled' && /was banned/.test(annotation.description ?? ''));
  expect(throttled.length, 'the first test on the key waited the ban out').toBeGreaterThan(0);
  expect(report.verdict.notes.join(' ')).not.toMatch(/Spent|Banned/);
});

test('a ban longer than a test may wait is reported as a ban, never as a spent day, and fails no rule', async () => {
  test.setTimeout(240_000);
  // Twenty hours of the server's, 300 real seconds: longer than any test against a target may take.
  const { run, report } = await runBanned('banned-key-reported', 1_200);
  expect(run.tests.filter(failed).map((item) => `${item.title}: ${item.errors.join(' ')}`), run.output.slice(-3_000)).toEqual([]);
  expect(run.exitCode).toBe(3);
  expect(report.verdict.failedMust).toEqual([]);
  const notes = report.verdict.notes.join('\n');
  expect(notes, run.output.slice(-3_000)).toMatch(/^Banned for longer than a test could wait .*the 1st key of PETSTORE_API_KEY_FREE \(back/m);
  expect(notes).not.toContain('Spent before this run');
  for (const item of run.tests) expect(item.annotations.map((annotation) => annotation.description ?? '').join(' '), item.title).toContain('is banned until');
});
