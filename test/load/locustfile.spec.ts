/**
 * locustfile.py is Python the package ships: it must compile, and its client and tally must pass their unit
 * tests (locustfile_test.py, with the shared table of client cases), run by the Python that runs Locust.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { findLocust, pythonOfLocust } from '../../harness/load/engine/locust-binary.ts';
import { LOCUSTFILE_SOURCE } from '../../harness/load/engine/run-plan.ts';

const locust = findLocust();
test.skip(!locust && !process.env.CI, 'Locust is not installed: bash scripts/ensure-locust.sh (npm test runs it) or pip install locust');

function python(args: string[]): Promise<{ code: number; output: string }> {
  const interpreter = pythonOfLocust(locust ?? '');
  return new Promise((resolve) => {
    execFile(interpreter, args, { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: `${stdout}${stderr}` });
    });
  });
}

test('locustfile.py compiles', async () => {
  const cfile = join(mkdtempSync(join(tmpdir(), 'locustfile-')), 'locustfile.pyc');
  const compiled = await python(['-c', 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)', LOCUSTFILE_SOURCE, cfile]);
  expect(compiled.code, compiled.output).toBe(0);
});

test("locustfile.py's client passes the shared cases and its tally merges per window", async () => {
  const run = await python([fileURLToPath(new URL('locustfile_test.py', import.meta.url)), '-v']);
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/Ran \d+ tests/);
  expect(run.output).toContain('OK');
});
