/**
 * The Locust engine for real: Locust's master and two worker processes on this machine against reference
 * servers at scaled time (a minute lasts 1 s), read back from the master's merged counts. It catches the racy
 * gateway that a single client with one connection cannot, and its command line keeps keys out of every
 * file (engine-parity.spec.ts compares its verdicts with the built-in engine's).
 * Locust comes from scripts/ensure-locust.sh (npm test's pretest); without it these tests are skipped,
 * except in CI, where a missing engine is a failure.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type { LoadSummary } from '../../harness/load/summary.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { closedAfterEach, needLocust } from './support/locust.ts';
import { OverAdmittingLimiter } from './support/limiters.ts';
import { startRacyGateway } from './support/racy-gateway.ts';
import { keyOf, overLimit, runAgainst, runEngineAgainst, verdictOf, type KeyPlan } from './support/run.ts';

const SCALE = 60;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'harness/load/main.ts');
test.describe.configure({ mode: 'serial' });
needLocust();
const keep = closedAfterEach();

test('a racy shared counter across gateway nodes passes a single client and fails the two-worker Locust run', async () => {
  const keys: KeyPlan[] = [{ plan: 'free', keyNumber: 1, behaviour: 'naive', rate: overLimit(1.1) }];
  const single = await startRacyGateway(SCALE);
  try {
    // One request in flight at a time: one keep-alive connection, one gateway node, an exact count.
    const builtin = await runAgainst(single.baseUrl, keys, 4_000, SCALE, 1);
    const key = keyOf(builtin, 'free #1 naive');
    expect(verdictOf(key, 'minute-max').status).toBe('pass');
    expect(builtin.status).toBe('pass');
  } finally {
    await single.close();
  }
  const gateway = await startRacyGateway(SCALE);
  try {
    const engine = await runEngineAgainst(gateway.baseUrl, keys, 4_000, SCALE);
    const key = keyOf(engine, 'free #1 naive');
    expect(verdictOf(key, 'minute-max')).toMatchObject({ status: 'fail', rules: ['PLAN-FREE'] });
    expect(verdictOf(key, 'remaining-steps').status).toBe('fail');
    expect(engine.status).toBe('fail');
  } finally {
    await gateway.close();
  }
});

test('the command line: --export writes a keyless test, a live run and --verdicts-from give one exit code, and no key is written anywhere', async () => {
  const secret = 'sk-live-engine-test-5e3f';
  const running = await createReferenceServer({ timeScale: SCALE, keys: { free: [secret], pro: [], business: [], enterprise: [] } }, { limiter: new OverAdmittingLimiter(SCALE) });
  keep(running);
  const env = { PETSTORE_BASE_URL: running.baseUrl, PETSTORE_API_KEY_FREE: secret, PETSTORE_TIME_SCALE: String(SCALE) };
  const dir = mkdtempSync(join(tmpdir(), 'load-engine-cli-'));

  const exported = await load(['--engine', 'locust', '--plan', 'free', '--duration', '3s', '--export', join(dir, 'export'), '--workers', '3'], env);
  expect(exported.code, exported.stderr).toBe(0);
  expect(readdirSync(join(dir, 'export')).sort()).toEqual(['README.md', 'locustfile.py', 'petstore-run.json']);
  expect(readFileSync(join(dir, 'export', 'README.md'), 'utf8')).toContain('--verdicts-from petstore-result.json');
  expect(JSON.parse(readFileSync(join(dir, 'export', 'petstore-run.json'), 'utf8'))).toMatchObject({ usersPerKey: 3, timeScale: SCALE, keys: [{ keyVariable: 'PETSTORE_API_KEY_FREE', keyNumber: 1 }] });

  const live = await load(['--engine', 'locust', '--plan', 'free', '--duration', '3s', '--output', join(dir, 'out')], env);
  expect(live.code, live.stderr).toBe(1);
  expect(live.stdout).toContain('Engine: Locust');
  expect(live.stdout).toContain('FAIL');
  const judged = await load(['--verdicts-from', join(dir, 'out', 'locust', 'petstore-result.json'), '--output', join(dir, 'again')], {});
  expect(judged.code, judged.stderr).toBe(1);
  const headline = (path: string): string => (JSON.parse(readFileSync(path, 'utf8')) as LoadSummary).headline;
  expect(headline(join(dir, 'again', 'summary.json'))).toBe(headline(join(dir, 'out', 'summary.json')));

  for (const text of [exported.stdout, live.stdout, live.stderr, judged.stdout, ...filesUnder(dir).map((file) => readFileSync(file, 'utf8'))]) expect(text).not.toContain(secret);
});

test('engine input errors are one line with exit code 2', async () => {
  const foreign = mkdtempSync(join(tmpdir(), 'load-engine-foreign-'));
  writeFileSync(join(foreign, 'petstore-run.json'), '{"keys": [{"plan": "gold"}]}');
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--engine', 'artillery'], {}, 'load: --engine "artillery" is not one of builtin, locust'],
    [['--export', 'somewhere'], {}, "load: --export writes an engine's test: give --engine locust with it"],
    [['--engine', 'locust', '--plan', 'free'], { PETSTORE_LOCUST: '/nowhere/locust' }, 'load: PETSTORE_LOCUST names /nowhere/locust, which does not exist'],
    [['--verdicts-from', '/nowhere/petstore-result.json'], {}, 'load: --verdicts-from /nowhere/petstore-result.json: no such file; give a Locust result file (petstore-result.json)'],
    [['--verdicts-from', join(foreign, 'petstore-result.json')], {}, `load: ${join(foreign, 'petstore-run.json')} is not a run plan this version wrote`],
  ];
  for (const [args, env, expected] of cases) {
    const outcome = await load(args, env);
    expect(outcome.code, `${args.join(' ')}: ${outcome.stderr}`).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toContain(expected);
  }
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** The load script as a user runs it, with no PETSTORE_* variable of the test runner. */
function load(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
    });
  });
}
