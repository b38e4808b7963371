/**
 * `--engine locust --export DIR` reads the target's settings as a run does: a bad PETSTORE_BASE_URL or
 * PETSTORE_TIME_SCALE is bad input (one line naming the variable, exit code 2, nothing written), never a
 * silent time scale of 1 or a "run failed" exit 4, as the settings reference promises.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'harness/load/main.ts');

function exportWith(env: Record<string, string>, dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, '--engine', 'locust', '--plan', 'free', '--export', dir], { cwd: ROOT, env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
    });
  });
}

const BAD_VALUES: ReadonlyArray<readonly [Record<string, string>, string]> = [
  [{ PETSTORE_TIME_SCALE: 'fast' }, 'petstore-conformance load: PETSTORE_TIME_SCALE must be a positive number such as 1 or 60, got "fast"'],
  [{ PETSTORE_TIME_SCALE: '0' }, 'petstore-conformance load: PETSTORE_TIME_SCALE must be a positive number such as 1 or 60, got "0"'],
  [{ PETSTORE_BASE_URL: 'ftp://example.com/v1' }, 'petstore-conformance load: PETSTORE_BASE_URL: "ftp://example.com/v1" must be an http:// or https:// URL'],
];

for (const [env, line] of BAD_VALUES) {
  test(`--export with ${Object.entries(env).map(([name, value]) => `${name}=${value}`).join(' ')}: one line naming the variable, exit code 2, nothing written`, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'load-export-')), 'export');
    const outcome = await exportWith(env, dir);
    expect(outcome.code, outcome.stderr).toBe(2);
    expect(outcome.stderr).toBe(`${line}\n`);
    expect(existsSync(dir)).toBe(false);
  });
}

test('--export with good settings writes the test at the time scale given', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'load-export-')), 'export');
  const outcome = await exportWith({ PETSTORE_TIME_SCALE: '60', PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1' }, dir);
  expect(outcome.code, outcome.stderr).toBe(0);
  expect(outcome.stdout).toContain('time scale 60');
  expect(existsSync(join(dir, 'locustfile.py'))).toBe(true);
});
