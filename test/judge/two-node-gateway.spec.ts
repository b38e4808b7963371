/**
 * A two-node gateway of our own on real parts (test/support/gateways/two-node-gateway.ts): Debian's nginx, as the
 * how-to configures it and writing its log, balances two Node processes that share one counter in Debian's
 * redis-server through rate-limiter-flexible, each writing X-RateLimit-Reset as ceil((now + msLeft) / 1000) from
 * its own clock. Every product verdict is asked of it as a user asks: `certify`, `load` at 1.5 times Free's and
 * Pro's quota on the built-in engine and on Locust, and `judge` of nginx's log. The correct gateway fails none of
 * them, at 15-s windows and at real time: each reads a Reset the two nodes rounded a second apart as one window's
 * end, and answers of the two as possibly overtaking. The same gateway counting with read-then-write, working
 * 100 ms between (two requests that read one count both admitted), loaded at 3x, is caught by the plans' quota
 * rules in each; so is the same library counting in each node's own memory, not shared (RateLimiterMemory, as a
 * team that started on one node leaves it), loaded at 1.5x.
 * Skipped, saying how to get the missing tool, where redis-server, nginx, openssl or Locust is missing; under CI a
 * missing tool fails instead.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { LoadSummary } from '../../harness/load/summary.ts';
import { keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { LOCUST } from '../load/support/locust.ts';
import { GATEWAY_KEYS, startTwoNodeGateway, type Counter } from '../support/gateways/two-node-gateway.ts';
import { REDIS_HINT, redisServerPath } from '../support/gateways/redis-server.ts';
import { NGINX_HINT, nginxPath, OPENSSL_HINT, opensslPath } from './nginx.ts';

const MISSING = [
  [redisServerPath() === undefined, REDIS_HINT],
  [nginxPath() === undefined, NGINX_HINT],
  [opensslPath() === undefined, OPENSSL_HINT],
  [!LOCUST, 'Locust is not installed: bash scripts/ensure-locust.sh (npm test runs it) or pip install locust'],
] as const;
for (const [missing, hint] of MISSING) {
  test.skip(missing && !process.env.CI, hint);
  test.beforeAll(() => {
    if (missing) throw new Error(`${hint} (CI must run these tests: scripts/ensure-*.sh should have installed it)`);
  });
}

interface Outcome {
  code: number;
  output: string;
}

/** `petstore-conformance <args>` as a user runs it, in `cwd`, with the keys `use` picks of each plan. */
function cli(args: readonly string[], cwd: string, use: (keys: readonly string[]) => readonly string[]): Promise<Outcome> {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_|GITHUB_|NODE_OPTIONS$|npm_)/.test(name)));
  const keys = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), use(GATEWAY_KEYS[plan]).join(',')]));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'bin', 'petstore-conformance.js'), ...args], { cwd, env: { ...kept, ...keys }, timeout: 1_500_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

/** Each failed rule of a conformance report (certify's, judge's) with its first message. */
function reportFailures(dir: string): Record<string, string> {
  const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  return Object.fromEntries(report.rules.filter((row) => row.verdict === 'fail').map((row) => [row.id, row.failures[0]?.text ?? '']));
}

/** Each failed check of a load summary, per key, with the rules it names and what the run saw. */
function loadFailures(dir: string): Record<string, string> {
  const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as LoadSummary;
  return Object.fromEntries(
    summary.keys.flatMap((key) => key.verdicts.filter((verdict) => verdict.status === 'fail').map((verdict) => [`${key.label} ${verdict.check} [${verdict.rules.join(', ')}]`, `${verdict.detail} ${verdict.evidence.join('; ')}`])),
  );
}

const COMMANDS = ['certify', 'builtin', 'locust', 'judge'] as const;
type Command = (typeof COMMANDS)[number];
type Verdicts = Record<Command, Outcome & { failures: Record<string, string> }>;

const ASKED: Record<Command, string> = {
  certify: 'certify',
  builtin: 'load (built-in engine, Free and Pro)',
  locust: 'load --engine locust (two workers, Free and Pro)',
  judge: "judge of nginx's log",
};

/**
 * How far the second node's clock runs ahead of the first's: the two write one window's end to different seconds in
 * about half of all windows, so that every run's windows show two nodes' rounding, not only those whose end fell
 * within a few ms of a whole second (a run seldom had one, and the tests of the correct gateway passed by luck).
 */
const NODE_CLOCKS_APART_MS = 500;

/**
 * The gateway at `timeScale`, asked by each command in turn, each on keys of its own: certify (keys 1 and 2 of
 * each plan), load on the built-in engine (key 3), load on Locust (key 4), then judge of nginx's whole log. Every
 * report, and nginx's log as access.log, stay in the test's output folder: a real capture to replay a verdict on.
 */
async function verdictsOf(counter: Counter, timeScale: number, loadSeconds: number, rate: string): Promise<Verdicts> {
  const work = test.info().outputPath(`${counter}-${timeScale}`);
  mkdirSync(work, { recursive: true });
  const gateway = await startTwoNodeGateway({ timeScale, counter, clockApartMs: NODE_CLOCKS_APART_MS });
  let certify: Outcome, builtin: Outcome, locust: Outcome;
  try {
    certify = await cli(['certify', '--base-url', gateway.baseUrl, '--output', 'certify'], work, (keys) => keys.slice(0, 2));
    const load = ['load', '--base-url', gateway.baseUrl, '--plan', 'free,pro', '--rate', rate, '--duration', `${loadSeconds}s`, '--time-scale', String(timeScale)];
    builtin = await cli([...load, '--output', 'builtin'], work, (keys) => keys.slice(2, 3));
    locust = await cli([...load, '--engine', 'locust', '--workers', '2', '--output', 'locust'], work, (keys) => keys.slice(3, 4));
  } finally {
    await gateway.stop();
  }
  copyFileSync(gateway.accessLog, path.join(work, 'access.log'));
  const judge = await cli(['judge', 'access.log', '--output', 'judge'], work, (keys) => keys);
  const at = (dir: string, read: (dir: string) => Record<string, string>, outcome: Outcome) => ({ ...outcome, failures: read(path.join(work, dir)) });
  return {
    certify: at('certify', reportFailures, certify),
    builtin: at('builtin', loadFailures, builtin),
    locust: at('locust', loadFailures, locust),
    judge: at('judge', reportFailures, judge),
  };
}

/** Every command's failures, by command. */
function allFailures(verdicts: Verdicts): Record<string, Record<string, string>> {
  return Object.fromEntries(COMMANDS.map((command) => [command, verdicts[command].failures]));
}

for (const [timeScale, windows, loadSeconds, minutes] of [
  [4, '15-s windows', 25, 20],
  [1, 'real time (minute windows)', 75, 40],
] as const) {
  test.describe(`a correct two-node gateway (rate-limiter-flexible on one redis-server, behind nginx) at ${windows}`, () => {
    // One run of every command feeds the four tests (printed whole, as a failure stops the ones after it).
    test.describe.configure({ mode: 'serial' });
    let verdicts: Verdicts;
    test.beforeAll(async () => {
      test.setTimeout(minutes * 60_000);
      verdicts = await verdictsOf('library', timeScale, loadSeconds, '1.5x');
      console.log(`correct gateway at ${windows}: ${JSON.stringify(allFailures(verdicts), null, 2)}`);
    });
    for (const command of COMMANDS) {
      test(`${ASKED[command]} fails nothing`, () => {
        const { failures, code, output } = verdicts[command];
        expect(failures).toEqual({});
        // certify and judge may end Not certified (3): what the traffic or a target without quota tests cannot show.
        expect(command === 'builtin' || command === 'locust' ? [0] : [0, 3], output.slice(-2_000)).toContain(code);
      });
    }
  });
}

/** The load on the racy gateway: fast enough that each key's next request comes within its counter's 100 ms race. */
const RACY_RATE = '3x';

test.describe("the same gateway with a read-then-write counter, at 15-s windows: each command fails a plan's quota", () => {
  test.describe.configure({ mode: 'serial' });
  let verdicts: Verdicts;
  test.beforeAll(async () => {
    test.setTimeout(20 * 60_000);
    verdicts = await verdictsOf('racy', 4, 25, RACY_RATE);
    console.log(`racy gateway at 15-s windows: ${JSON.stringify(allFailures(verdicts), null, 2)}`);
  });
  for (const command of COMMANDS) {
    test(`${ASKED[command]} fails PLAN-FREE, PLAN-PRO or PLAN-BUSINESS`, () => {
      // Every run overlaps requests of a key: certify's bursts, Locust's users (at least two a key), and the
      // built-in engine's open arrivals 83 ms apart at 3x Free, within the racy counter's 100 ms between read and
      // write. So each over-admits by evidence in every run, and each command must say so.
      const { failures, code, output } = verdicts[command];
      expect(Object.keys(failures).join(' ')).toMatch(/PLAN-(FREE|PRO|BUSINESS)/);
      expect(code, output.slice(-2_000)).toBe(1);
    });
  }
});

test.describe('the same two nodes each counting in its own memory (RateLimiterMemory, no Redis), at 15-s windows: each command fails a plan\'s quota', () => {
  test.describe.configure({ mode: 'serial' });
  let verdicts: Verdicts;
  test.beforeAll(async () => {
    test.setTimeout(20 * 60_000);
    verdicts = await verdictsOf('memory', 4, 25, '1.5x');
    console.log(`unshared gateway at 15-s windows: ${JSON.stringify(allFailures(verdicts), null, 2)}`);
  });
  // Locust too: at 1.5x no node refuses, so its sums show no window's kind, but its generators count each window's
  // admissions answered well before its Reset (firm), and more of those than the limit is past any limiter's quota
  // (issue 38: before, such a window was left unchecked and the run passed with 1.5 times the quota admitted).
  for (const command of COMMANDS) {
    const caughtBy = command === 'certify' ? /PLAN-(FREE|PRO|BUSINESS)/ : /PLAN-(FREE|PRO|BUSINESS)|RL-6|RL-7/;
    test(`${ASKED[command]} fails ${command === 'certify' ? "a plan's quota" : "a plan's quota, or the headers the two counts contradict"}`, () => {
      // nginx sends a key's requests to both nodes in turn, and each admits up to the key's quota: a window admits
      // up to twice it. certify's quota tests send one past the quota and see it admitted. Traffic at 1.5 times the
      // quota is all admitted, and the answers show it as more admitted under one Reset than its limit where the two
      // nodes' windows end in the same second, and elsewhere as two counts at once: Remaining jumping between
      // them (RL-6) and Reset between their ends (RL-7).
      const { failures, code, output } = verdicts[command];
      expect(Object.keys(failures).join(' ')).toMatch(caughtBy);
      expect(code, output.slice(-2_000)).toBe(1);
    });
  }
});
