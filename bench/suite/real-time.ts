/**
 * The whole suite at real time (a minute is a minute), quota tests off, against the reference server started with
 * PETSTORE_CLOCK_RATE=1 and the keys a small team has: two Free keys and one of each other plan (demo keys): the
 * wall time of a run that waits for windows as a real target makes it wait. One burst per key is judged by every
 * rule it can show, so what the run must wait for is one minute window (the 429's Retry-After) beside the
 * functional tests; the goal is at most 75 s. A speed goal, so a benchmark, never a timed test.
 *
 *   npm run bench:suite:real-time
 *
 * Prints the wall time, the verdict and the tests that took longest; writes reports/bench/suite-real-time.md.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS, type PlanId } from '../../lib/plans.ts';
import { reportEnv, suiteNodeArgs } from '../../lib/processes/suite-process.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';

const GOAL_SECONDS = 75;
/** Two Free keys (RL-GAP-1 compares two keys of a plan) and one key of each other plan. */
const KEYS_PER_PLAN: Readonly<Record<PlanId, number>> = { free: 2, pro: 1, business: 1, enterprise: 1 };
const LONGEST_SHOWN = 6;
const OUTPUT = fileURLToPath(new URL('../../reports/bench/suite-real-time', import.meta.url));
const REPORT = `${OUTPUT}.md`;

interface JsonSuite {
  suites?: JsonSuite[];
  specs?: Array<{ title: string; tests: Array<{ projectName: string; results: Array<{ duration: number }> }> }>;
}

/** Every test's title and duration from Playwright's JSON report. */
function durations(suite: JsonSuite): Array<{ title: string; seconds: number }> {
  const own = (suite.specs ?? []).flatMap((spec) => spec.tests.flatMap((test) => test.results.map((result) => ({ title: `[${test.projectName}] ${spec.title}`, seconds: result.duration / 1000 }))));
  return [...own, ...(suite.suites ?? []).flatMap(durations)];
}

rmSync(OUTPUT, { recursive: true, force: true });
mkdirSync(OUTPUT, { recursive: true });
const server = await spawnReferenceServer({ env: { PETSTORE_CLOCK_RATE: '1' } });
const started = Date.now();
let exitCode = 0;
try {
  const keys = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan].slice(0, KEYS_PER_PLAN[plan]).join(',')]));
  await promisify(execFile)(process.execPath, suiteNodeArgs(OUTPUT), {
    env: { ...process.env, ...reportEnv(OUTPUT), ...keys, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_QUOTA_TESTS: '0' },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { code?: number }) => {
    exitCode = typeof error.code === 'number' ? error.code : -1;
  });
} finally {
  await server.stop();
}
const wallSeconds = (Date.now() - started) / 1000;
const verdict = (JSON.parse(readFileSync(path.join(OUTPUT, 'conformance.json'), 'utf8')) as ConformanceReport).verdict.headline;
const longest = durations(JSON.parse(readFileSync(path.join(OUTPUT, 'results.json'), 'utf8')) as JsonSuite)
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, LONGEST_SHOWN);
const lines = [
  `Whole suite at real time, quota tests off, two Free keys and one key of each other plan: **${wallSeconds.toFixed(1)} s** wall (goal at most ${GOAL_SECONDS} s), exit ${exitCode}.`,
  '',
  `Verdict: ${verdict}`,
  '',
  '| Longest tests | s |',
  '|---|---|',
  ...longest.map(({ title, seconds }) => `| ${title.replace(/\|/g, '\\|')} | ${seconds.toFixed(1)} |`),
];
writeFileSync(REPORT, `${lines.join('\n')}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
