/**
 * petstore-conformance as a newcomer meets it: --version, a bare call, help <command>, and an old spelling of
 * a flag, which still works and says once, on stderr, what it is now spelled.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { COMMANDS, HELP } from '../../cli/commands.ts';
import { parseCommandFlags, POSITIONAL, commandFlags, FlagError } from '../../lib/cli/vocabulary.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';

const execFileAsync = promisify(execFile);
const BIN = path.join(REPO_ROOT, 'bin', 'petstore-conformance.js');
const SAMPLE_HAR = path.join(REPO_ROOT, 'fixtures', 'traffic', 'sample.har');
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as a user runs it, in an empty folder, with no PETSTORE_ setting of this test run. */
function cli(args: string[], cwd = mkdtempSync(path.join(tmpdir(), 'petstore-cli-')), extra: Record<string, string> = {}): Promise<Outcome> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_'))), ...extra };
  return execFileAsync(process.execPath, [BIN, ...args], { cwd, env, timeout: 90_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

test('--version and -V print the package version, and nothing else', async () => {
  for (const flag of ['--version', '-V']) {
    expect(await cli([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  }
});

test('a bare petstore-conformance prints the help and exits 0, as --help does', async () => {
  expect(await cli([])).toEqual({ code: 0, stdout: `${HELP}\n`, stderr: '' });
  expect(await cli(['--help'])).toEqual({ code: 0, stdout: `${HELP}\n`, stderr: '' });
});

test('help <command> prints that command\'s --help; an unknown one is a usage error (exit 2)', async () => {
  const judge = await cli(['help', 'judge']);
  expect(judge).toEqual({ code: 0, stdout: `${COMMANDS.judge!.help}\n`, stderr: '' });
  expect((await cli(['judge', '--help'])).stdout).toBe(judge.stdout);
  const unknown = await cli(['help', 'certfy']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/^petstore-conformance: unknown command "certfy"; the commands are certify, /);
});

test('every command answers --help with its help and exit 0', async () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    expect(await cli([name, '--help']), name).toEqual({ code: 0, stdout: `${command.help}\n`, stderr: '' });
  }
});

test('an old spelling becomes the new one with one deprecation line: --out=, and an alias of the argument', () => {
  const declared = commandFlags('record', ['base-url', 'output', 'help'], { upstream: 'base-url', out: POSITIONAL, 'report-dir': 'output' });
  const warned: string[] = [];
  const parsed = parseCommandFlags(declared, ['--upstream=http://x/v1', '--out', 'a.har', '--report-dir', 'r', '--report-dir', 's', '--', '--out'], { allowPositionals: true, warn: (line) => warned.push(line) });
  expect(parsed.values).toEqual({ 'base-url': 'http://x/v1', output: 's' });
  expect(parsed.positionals).toEqual(['a.har', '--out']);
  expect(warned).toEqual([
    'petstore-conformance record: --upstream is deprecated and will be removed; use --base-url',
    'petstore-conformance record: --out is deprecated and will be removed; use the file as the argument',
    'petstore-conformance record: --report-dir is deprecated and will be removed; use --output',
  ]);
  expect(() => parseCommandFlags(declared, ['--out-dir', 'x'])).toThrow(new FlagError('unknown option --out-dir (see petstore-conformance record --help)'));
});

test('replay --report-dir still writes the report where it says, and says once that it is now --output; --summary appends the verdict', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'petstore-cli-'));
  writeFileSync(path.join(cwd, 'job.md'), 'an earlier step\n');
  const outcome = await cli(['replay', SAMPLE_HAR, '--speed', '0', '--report-dir', 'old-place', '--summary', 'job.md'], cwd);
  expect(outcome.code, outcome.stderr).toBe(0);
  expect(outcome.stderr.split('\n').filter((line) => /deprecated/.test(line))).toEqual(['petstore-conformance replay: --report-dir is deprecated and will be removed; use --output']);
  expect(existsSync(path.join(cwd, 'old-place', 'summary.json'))).toBe(true);
  expect(readFileSync(path.join(cwd, 'job.md'), 'utf8')).toMatch(/^an earlier step\n## Pet Store replay: .*sample\.har against http:\/\/127\.0\.0\.1:\d+\/v1\n\n```text\nPASS: /);
});

test('load --out still works as --output, and load takes --base-url and --summary as the other commands do', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'petstore-cli-'));
  const server = await createReferenceServer({ timeScale: 60 });
  try {
    const env = { PETSTORE_API_KEY_FREE: DEMO_KEYS.free.join(','), PETSTORE_TIME_SCALE: '60' };
    const outcome = await cli(['load', '--base-url', server.baseUrl, '--plan', 'free', '--duration', '2s', '--out', 'old-place', '--summary', 'job.md'], cwd, env);
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain(`Target: ${server.baseUrl} (--base-url), keys from PETSTORE_API_KEY_FREE`);
    expect(outcome.stderr.split('\n').filter((line) => /deprecated/.test(line))).toEqual(['petstore-conformance load: --out is deprecated and will be removed; use --output']);
    expect(existsSync(path.join(cwd, 'old-place', 'summary.json'))).toBe(true);
    expect(readFileSync(path.join(cwd, 'job.md'), 'utf8')).toContain(`## Pet Store quota load: ${server.baseUrl}\n\n\`\`\`text\n✔ PASS`);
  } finally {
    await server.close();
  }
});

test('judge --base-url names the service the traffic went to as the report\'s target', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'petstore-cli-'));
  const outcome = await cli(['judge', SAMPLE_HAR, '--base-url', 'https://staging.example.com/v1/', '--output', 'judged'], cwd);
  expect([0, 1, 3], outcome.stderr).toContain(outcome.code);
  const report = JSON.parse(readFileSync(path.join(cwd, 'judged', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.target.url).toBe('https://staging.example.com/v1');
});
