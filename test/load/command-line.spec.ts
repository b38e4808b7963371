/**
 * `npm run load` as a user runs it: one-line errors with exit code 2 for bad input, exit 0 and a readable
 * report when the quotas hold, exit 1 when a target breaks one, and no key in any output.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { inChromium } from '../support/chromium.ts';
import { OverAdmittingLimiter } from './support/limiters.ts';
import { closedPort } from '../support/closed-port.ts';
import { assertMatchesSchema } from '../support/report-schemas.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'harness/load/main.ts');
const ALL_KEYS = Object.values(DEMO_KEYS).flat();

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the load script with a clean environment: no PETSTORE_* variable from the test runner leaks in. */
function load(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
    });
  });
}


test('bad input gets one clear line on stderr and exit code 2, never a stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-cli-'));
  const malformed = join(dir, 'broken.yaml');
  writeFileSync(malformed, 'keys:\n  - plan: free\n    rate: [1.1x\n');
  const port = await closedPort();
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['--plan', 'gold'], {}, 'load: --plan: unknown plan "gold"; expected one of free, pro, business, enterprise'],
    [['--plan', 'free', '--rate', '0'], {}, 'load: --rate must be above 0, got "0"'],
    [['--plan', 'free', '--duration', '5 minutes'], {}, 'load: --duration "5 minutes" is not a duration; write it like 90s, 3m, 1m30s, 500ms or 1h'],
    [['--scenario', malformed], {}, `load: ${malformed}: not valid YAML:`],
    [['--plan', 'pro'], { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY_FREE: 'k1' }, 'load: no key for the Pro plan: set PETSTORE_API_KEY_PRO'],
    [['--plan', 'free'], { PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1`, PETSTORE_API_KEY_FREE: 'k1' }, `load: cannot reach http://127.0.0.1:${port}/v1: connection refused`],
    [['--plan', 'enterprise', '--rate', '1.1x'], {}, 'load: --rate: Enterprise has no documented limit to multiply'],
  ];
  const outcomes = await Promise.all(cases.map(([args, env]) => load(args, env)));
  outcomes.forEach((outcome, index) => {
    const [args, , expected] = cases[index] as (typeof cases)[number];
    expect(outcome.code, args.join(' ')).toBe(2);
    expect(outcome.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    expect(outcome.stderr, args.join(' ')).toContain(expected);
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });
});

test('a run against the bundled server passes, writes summary.json and a report that renders, and shows no key', async () => {
  const out = mkdtempSync(join(tmpdir(), 'load-report-'));
  const outcome = await load(['--plan', 'free', '--rate', '1.1x', '--behaviour', 'both', '--duration', '3s', '--output', out]);
  expect(outcome.stderr).not.toContain('petstore-conformance load:');
  expect(outcome.code).toBe(0);
  expect(outcome.stdout).toContain('Target: the bundled reference server at http://127.0.0.1:');
  expect(outcome.stdout).toContain('✔ PASS');
  const json = readFileSync(join(out, 'summary.json'), 'utf8');
  const page = readFileSync(join(out, 'index.html'), 'utf8');
  const summary = assertMatchesSchema('load-summary', JSON.parse(json) as { status: string; keys: Array<{ label: string; keyVariable: string }> });
  expect(summary.status).toBe('pass');
  expect(summary.keys.map((key) => key.label)).toEqual(['free #1 compliant', 'free #2 naive']);
  expect(summary.keys[0]?.keyVariable).toBe('$PETSTORE_API_KEY_FREE');
  for (const text of [outcome.stdout, outcome.stderr, json, page]) {
    for (const key of ALL_KEYS) expect(text).not.toContain(key);
  }
  expect(page).not.toContain('<script');

  await inChromium(async (browser) => {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    tab.on('requestfailed', (request) => problems.push(`fetched ${request.url()}`));
    await tab.goto(`file://${join(out, 'index.html')}`);
    await expect(tab.locator('.verdict')).toContainText('Free: documented quota held');
    await expect(tab.locator('.plan').first()).toContainText('quota held');
    expect(await tab.locator('section.key svg').count()).toBe(6);
    expect(problems).toEqual([]);
  });
});

test('a target that admits limit+1 makes the run fail with exit code 1, naming PLAN-FREE', async () => {
  const server = await createReferenceServer({ timeScale: 60 }, { limiter: new OverAdmittingLimiter(60) });
  try {
    const out = mkdtempSync(join(tmpdir(), 'load-broken-'));
    const outcome = await load(['--plan', 'free', '--rate', '1.1x', '--duration', '3s', '--output', out], {
      PETSTORE_BASE_URL: server.baseUrl,
      PETSTORE_API_KEY_FREE: DEMO_KEYS.free[0] as string,
      PETSTORE_TIME_SCALE: '60',
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain('✘ FAIL  Quota broken: Free did not hold its documented quota.');
    expect(outcome.stdout).toContain('PLAN-FREE free #1 compliant: No minute window admits more than 60 requests');
    expect(outcome.stdout).toContain(`Target: ${server.baseUrl} (PETSTORE_BASE_URL), keys from PETSTORE_API_KEY_FREE`);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('quota broken');
  } finally {
    await server.close();
  }
});

test('a time scale whose windows are shorter than 2 s is named up front, in one line on stderr, with the checks it leaves partly judged', async () => {
  const out = mkdtempSync(join(tmpdir(), 'load-short-windows-'));
  const fast = await load(['--plan', 'free', '--rate', '1.1x', '--duration', '2s', '--time-scale', '60', '--output', out]);
  expect(fast.code, fast.stdout + fast.stderr).toBe(0);
  expect(fast.stderr.split('\n').filter((line) => line.includes('time scale 60'))).toHaveLength(1);
  expect(fast.stderr).toMatch(/^Note: windows of 1\.0 s at time scale 60 are shorter than the Reset rounding plus the clock slack \(2\.0 s\): .* \(minute-max, first-refusal, remaining-steps\) fail only on what came back within one window of a window's first request, .*time scale of 30 or less.*\n/);
  const slower = await load(['--engine', 'locust', '--plan', 'free', '--time-scale', '30', '--export', join(out, 'export')]);
  expect(slower.code, slower.stderr).toBe(0);
  expect(slower.stderr).toBe('');
});
