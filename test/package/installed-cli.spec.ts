/**
 * The package as a service's CI would use it: packed, installed into an empty project that cannot see this
 * checkout's node_modules, and run with npx from there. Reports land in that project, never in the package.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { createReferenceServer, type RunningServer } from '../../reference-server/server.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { ensureJudgeHar, HAR_BASE_URL } from '../../bench/judge/har.ts';
import { HAR_IN_WORKER_BYTES } from '../../lib/capture/read.ts';

const execFileAsync = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a service's CI job has: nothing of this test run, nothing of this checkout. */
function foreignEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_|NODE_OPTIONS$|npm_)/.test(name)));
  return { ...kept, ...extra };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 120_000): Promise<Outcome> {
  return execFileAsync(command, args, { cwd, env, timeout, maxBuffer: 32 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: `${error.stderr ?? ''}${typeof error.code === 'number' ? '' : error.message}`,
    }),
  );
}

test.describe.serial('the packed package, installed into an empty project', () => {
  let project: string;
  let server: RunningServer;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const work = mkdtempSync(path.join(tmpdir(), 'petstore-package-'));
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], REPO_ROOT, foreignEnv());
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = path.join(work, packed.stdout.trim().split('\n').at(-1)!);
    project = path.join(work, 'service');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'a-service', version: '1.0.0', private: true }));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', tarball], project, foreignEnv(), 200_000);
    expect(installed.code, installed.stderr).toBe(0);
    server = await createReferenceServer({ timeScale: 60 });
  });

  test.afterAll(async () => {
    await server?.close();
    if (project) rmSync(path.dirname(project), { recursive: true, force: true });
  });

  test('it carries no tests, benchmarks or scripts of this repository', () => {
    const root = path.join(project, 'node_modules', 'petstore-conformance');
    expect(readdirSync(root).sort()).toEqual(expect.arrayContaining(['bin', 'cli', 'fixtures', 'lib', 'playwright.config.ts', 'reference-server', 'specs']));
    for (const absent of ['test', 'bench', 'scripts', 'reports', '.github']) expect(existsSync(path.join(root, absent)), absent).toBe(false);
  });

  test('--help lists the commands; an unknown command or flag is one line and exit 2', async () => {
    const help = await run('npx', ['petstore-conformance', '--help'], project, foreignEnv());
    expect(help.code).toBe(0);
    for (const command of ['certify', 'serve', 'load', 'record', 'replay']) expect(help.stdout).toContain(command);
    const certifyHelp = await run('npx', ['petstore-conformance', 'certify', '--help'], project, foreignEnv());
    expect(certifyHelp.stdout).toContain('--base-url');
    expect(certifyHelp.stdout).toContain('certify IMPLEMENTATIONS.yaml');

    for (const args of [['frobnicate'], ['certify', '--frob']]) {
      const outcome = await run('npx', ['petstore-conformance', ...args], project, foreignEnv());
      expect(outcome.code, args.join(' ')).toBe(2);
      // npm itself may warn about the machine's own npm configuration; the command says one line.
      const lines = outcome.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
      expect(lines, outcome.stderr).toEqual([expect.stringMatching(/^petstore-conformance( certify)?: /)]);
    }
  });

  test('certify implementations.yaml writes its matrix and badges in the caller\'s folder', async () => {
    writeFileSync(path.join(project, 'implementations.yaml'), 'implementations:\n  - name: silent\n    start: sleep 30\n    startTimeoutSeconds: 1\n');
    const outcome = await run('npx', ['petstore-conformance', 'certify', 'implementations.yaml'], project, foreignEnv());
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain('silent: could not certify: the start command printed no base URL within 1 s');
    for (const file of ['index.html', 'matrix.json', path.join('silent', 'badge.svg')]) expect(existsSync(path.join(project, 'reports', 'certify', file)), file).toBe(true);
  });

  test('judge reads a HAR past HAR_IN_WORKER_BYTES on its reading thread, which loads its TypeScript from under node_modules', async () => {
    test.setTimeout(120_000);
    // Node strips types of no file under node_modules: the reading thread must load its code another way there.
    const har = path.join(path.dirname(project), 'large.har');
    await ensureJudgeHar(har, 25_000, 10, () => {});
    expect(statSync(har).size).toBeGreaterThan(HAR_IN_WORKER_BYTES);
    const outcome = await run('npx', ['petstore-conformance', 'judge', har, '--base-url', HAR_BASE_URL, '--output', 'judged'], project, foreignEnv(), 110_000);
    // A correct limiter's traffic: no rule fails, and those traffic cannot show are not checked (exit 3).
    expect(outcome.code, outcome.stdout.slice(-2_000) + outcome.stderr.slice(-2_000)).toBe(3);
    const report = JSON.parse(readFileSync(path.join(project, 'judged', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict.failedMust).toEqual([]);
    expect(JSON.stringify(report.rules)).toMatch(/judged on 25,000 exchanges/);
    // The reading starts before the judge checks its flags: a bad one still ends the command at once, in one line.
    const refused = await run('npx', ['petstore-conformance', 'judge', har, '--clock-skew', 'soon'], project, foreignEnv(), 20_000);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('certify --base-url certifies a running server, prints the verdict and leaves the reports in the caller\'s folder', async () => {
    test.setTimeout(180_000);
    const keys = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan].join(',')]));
    const outcome = await run('npx', ['petstore-conformance', 'certify', '--base-url', server.baseUrl], project, foreignEnv(keys), 170_000);
    // Without the daily-quota tests the plan rules are only partly checked: "Not certified", exit 3.
    expect(outcome.code, outcome.stdout.slice(-3_000) + outcome.stderr.slice(-2_000)).toBe(3);
    expect(outcome.stdout).toMatch(/^Conformance: Not certified: \d+ MUST rules? partly checked/m);
    const report = JSON.parse(readFileSync(path.join(project, 'reports', 'conformance', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict.failedMust).toEqual([]);
    expect(report.target.url).toBe(server.baseUrl);
    for (const file of ['index.html', 'junit.xml', 'results.json', path.join('playwright', 'index.html')]) {
      expect(existsSync(path.join(project, 'reports', 'conformance', file)), file).toBe(true);
    }
    expect(existsSync(path.join(project, 'node_modules', 'petstore-conformance', 'reports')), 'nothing written into the installed package').toBe(false);
  });
});
