/**
 * `certify implementations.yaml` end to end, as a user runs it: the bundled reference server certified by the
 * whole suite beside entries that cannot be certified, an expectation that has gone stale, a baseline; then
 * the console, the exit code, the files, the page in Chromium, and no key anywhere under reports/certify.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { TSX } from '../../lib/processes/child.ts';
import { catalogue } from '../../lib/rules.ts';
import { buildMatrix } from '../../matrix/build-matrix.ts';
import type { Matrix } from '../../matrix/model.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { inChromium } from '../support/chromium.ts';
import { closedPort } from '../support/closed-port.ts';
import { findSecrets } from '../suite/support/find-secrets.ts';
import { conformanceReport } from './support/conformance-reports.ts';
import { assertMatchesSchema } from '../support/report-schemas.ts';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'cli', 'main.ts');
const SECRET = 'sk-unreachable-9f3a2c';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function certify(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', TSX, CLI, 'certify', ...args], { cwd, env: { ...process.env, ...env }, timeout: 240_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function workspace(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'certify-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

test('the reference server certified beside implementations that cannot be: a matrix, badges, the stale expectation named, and no key written', async () => {
  test.setTimeout(300_000);
  const port = await closedPort();
  // The earlier run failed LIST-1 and saw sliding windows: this run must list LIST-1 as now passing and RL-GAP-2 as changed.
  const earlier = buildMatrix([{ name: 'reference', target: 't', report: conformanceReport({ 'LIST-1': { outcome: 'fail' }, 'RL-GAP-2': { gist: 'sliding windows; Retry-After as HTTP-date' } }), expectations: [] }], catalogue, '0.1.0', 'x');
  const folder = workspace({
    'implementations.yaml': `implementations:
  - name: reference
    version: bundled
    bundled: true
    expectations: expectations/reference.yaml
  - name: never-listening
    start: echo "starting"; sleep 60
    startTimeoutSeconds: 2
  - name: unreachable
    baseUrl: http://127.0.0.1:${port}/v1
    keys: { free: UNREACHABLE_KEY }
  - name: keyless
    baseUrl: http://127.0.0.1:${port}/v1
    keys: { pro: KEYLESS_KEY_NOT_SET }
  - name: typo
    bundled: true
    quota: true
`,
    'expectations/reference.yaml': 'failures:\n  - rule: LIST-1\n    reason: an expectation that no longer holds\n',
    'earlier/matrix.json': JSON.stringify(earlier),
  });

  const outcome = await certify(folder, ['implementations.yaml', '--baseline', 'earlier/matrix.json'], { UNREACHABLE_KEY: SECRET });
  const console = outcome.stdout + outcome.stderr;
  expect(outcome.code, console).toBe(1);
  expect(console).toContain('certify: typo: unknown field "quota"');
  expect(console).toMatch(/\[1\/4\] reference: \d+\/\d+ tests, no MUST rule failing so far/);
  expect(console).toContain('[1/4] reference: Conforming at MUST level');
  expect(console).toContain('never-listening: could not certify: the start command printed no base URL within 2 s (last output: starting)');
  expect(console).toContain(`unreachable: could not certify: the suite wrote no report: petstore-conformance certify: PETSTORE_BASE_URL http://127.0.0.1:${port}/v1 does not answer`);
  expect(console).toContain('keyless: could not certify: key variable KEYLESS_KEY_NOT_SET is not set');
  expect(console).toContain('reference: now passes: remove it from the expectations: LIST-1');
  expect(console).toContain('since ');
  expect(console).toMatch(/reference: now pass LIST-1; behaviour changed [A-Z0-9-, ]*RL-GAP-2/);
  expect(console).not.toContain(SECRET);

  const out = path.join(folder, 'reports', 'certify');
  const matrix = assertMatchesSchema('matrix', JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as Matrix);
  expect(matrix.implementations.map((implementation) => [implementation.name, implementation.verdictLabel])).toEqual([
    ['reference', 'Conforming'],
    ['never-listening', 'Could not certify'],
    ['unreachable', 'Could not certify'],
    ['keyless', 'Could not certify'],
    ['typo', 'Could not certify'],
  ]);
  expect(matrix.asExpected).toBe(false);
  expect(matrix.implementations[0]!.expectations.unexpectedPasses).toEqual(['LIST-1']);
  expect(matrix.rows.find((row) => row.id === 'RL-GAP-2')!.cells[0]!.gist).toMatch(/^fixed[a-z-]*; Retry-After as delta-seconds$/);
  for (const name of ['reference', 'never-listening', 'unreachable', 'keyless', 'typo']) expect(existsSync(path.join(out, name, 'badge.svg')), name).toBe(true);
  for (const file of ['index.html', 'conformance.json', 'junit.xml', 'results.json', 'playwright/index.html']) expect(existsSync(path.join(out, 'reference', file)), file).toBe(true);
  expect(readFileSync(path.join(out, 'reference', 'badge.svg'), 'utf8')).toContain('conforming');

  const { findings, filesRead } = findSecrets([out], [SECRET]);
  expect(filesRead).toBeGreaterThan(5);
  expect(findings).toEqual([]);

  await inChromium(async (browser) => {
    const page = await browser.newPage();
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) fetched.push(request.url());
    });
    await page.goto(`file://${path.join(out, 'index.html')}`);
    await expect(page.getByText('now passes', { exact: false }).first()).toBeVisible();
    await expect(page.locator('tr[id^="rule-"]')).toHaveCount(catalogue.rules.length);
    await expect(page.locator('#rule-LIST-1 a[href="reference/index.html#rule-LIST-1"]')).toHaveCount(1);
    expect(fetched).toEqual([]);
    await test.info().attach('matrix.png', { body: await page.screenshot({ fullPage: false }), contentType: 'image/png' });
  });
});

test('Ctrl-C during a run stops the suite and the implementation it started, writes what there is and exits 130', async () => {
  test.setTimeout(120_000);
  const folder = workspace({ 'implementations.yaml': `implementations:\n  - name: started\n    start: ${process.execPath} --import ${TSX} ${path.join(REPO_ROOT, 'reference-server', 'main.ts')}\n    keys: demo\n` });
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'certify', 'implementations.yaml'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => /started: \d+\/\d+ tests/.test(output), { timeout: 60_000 }).toBe(true);
  const baseUrl = /listening on (http:\/\/\S+)/.exec(readFileSync(path.join(folder, 'reports', 'certify', 'started', 'implementation.log'), 'utf8'))?.[1];
  expect(baseUrl).toBeDefined();
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  expect(code, output).toBe(130);
  expect(output).toContain('certify: interrupted');
  expect(existsSync(path.join(folder, 'reports', 'certify', 'matrix.json'))).toBe(true);
  expect(await fetch(`${baseUrl}/pets`).then(() => 'answered', () => 'refused')).toBe('refused');
});

test('bad input stops before anything runs: one line and exit 2', async () => {
  const folder = workspace({
    'shared.yaml': `implementations:
  - { name: staging, baseUrl: "http://127.0.0.1:9/v1", keys: { free: SHARED_A } }
  - { name: production, baseUrl: "http://127.0.0.1:10/v1", keys: { free: SHARED_B } }
`,
    'empty.yaml': 'implementations: []\n',
  });
  const shared = await certify(folder, ['shared.yaml', '--parallel', '2'], { SHARED_A: 'same-key', SHARED_B: 'other,same-key' });
  expect(shared.code).toBe(2);
  expect(shared.stderr.trim()).toBe(
    "petstore-conformance certify: --parallel: staging and production share a key; two runs on one key spend each other's quotas. Give them separate keys, or certify them one after another (no --parallel)",
  );
  expect(shared.stdout + shared.stderr).not.toContain('same-key');
  for (const [args, message] of [
    [['empty.yaml'], 'empty.yaml: expected "implementations:"'],
    [['missing.yaml'], 'missing.yaml: cannot read it (ENOENT)'],
    [['shared.yaml', '--parallel', 'lots'], '--parallel must be a whole number from 1 to 8, not "lots"'],
    [['shared.yaml', '--', '--grep', 'LIST'], 'Playwright flags cannot be passed'],
    [['shared.yaml', '--baseline', 'nowhere.json'], 'cannot read it as JSON (ENOENT)'],
  ] as const) {
    const outcome = await certify(folder, args);
    expect(outcome.code, args.join(' ')).toBe(2);
    expect(outcome.stderr, args.join(' ')).toContain(message);
    expect(outcome.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
  }
});
