/**
 * `petstore-conformance watch` as an operator runs it: it follows a log being written, serves the judge's
 * findings on /metrics in OpenMetrics text (no key in it), stops on SIGTERM with the judged period written as the
 * judge's report (exit 3: traffic alone never certifies), and resumes from its state file without judging a line
 * twice. Bad input is one line with the command's prefix, exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ensureJudgeCapture } from '../../bench/judge/capture.ts';
import { tempDir } from '../judge/support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'watch'];

async function watchUntil(args: string[], judged: (metrics: string) => boolean): Promise<{ code: number | null; metrics: string; stdout: string }> {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  await expect.poll(() => /metrics on (http:\S+)/.exec(stdout)?.[1], { timeout: 30_000 }).toBeDefined();
  const url = /metrics on (http:\S+)/.exec(stdout)?.[1] as string;
  let metrics = '';
  let contentType = '';
  await expect.poll(async () => {
    const response = await fetch(url);
    contentType = response.headers.get('content-type') ?? '';
    metrics = await response.text();
    return judged(metrics);
  }, { timeout: 30_000 }).toBe(true);
  expect(contentType).toContain('application/openmetrics-text');
  child.kill('SIGTERM');
  return { code: await closed, metrics, stdout };
}

test('watch serves the judge\'s findings, writes the report at exit and resumes from its state without judging a line twice', async () => {
  const dir = tempDir('watch-command');
  const capture = join(dir, 'capture.ndjson');
  await ensureJudgeCapture(capture, 1_200, 4, () => {});
  const lines = readFileSync(capture, 'utf8').trimEnd().split('\n');
  const log = join(dir, 'access.log');
  writeFileSync(log, `${lines.slice(0, 800).join('\n')}\n`);
  const args = [log, '--port', '0', '--state', join(dir, 'state.json'), '--output', join(dir, 'report'), '--label', 'production, live'];

  const first = await watchUntil(args, (metrics) => metrics.includes('petstore_watch_exchanges_judged_total{rule="RESP-1"} 800'));
  expect(first.metrics).not.toMatch(/Bearer|authorization/i);
  expect(first.metrics).toMatch(/petstore_watch_open_windows \d/);
  expect(first.code).toBe(3);
  const report = JSON.parse(readFileSync(join(dir, 'report', 'conformance.json'), 'utf8')) as { verdict: { state: string }; rules: Array<{ id: string; verdict: string }>; evidence: { label: string } };
  expect(report.rules.filter((row) => row.verdict === 'fail')).toEqual([]);
  expect(report.evidence.label).toBe('production, live');

  appendFileSync(log, `${lines.slice(800).join('\n')}\n`);
  const second = await watchUntil(args, (metrics) => metrics.includes('petstore_watch_exchanges_judged_total{rule="RESP-1"} 400'));
  expect(second.code).toBe(3);
  expect(second.metrics).not.toContain('{rule="RESP-1"} 1200');
});

test('watch without a log, or with a bad --max-keys, says so in one line and exits 2', () => {
  for (const args of [[], ['access.log', '--max-keys', 'many']]) {
    const run = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^petstore-conformance watch: .+\n$/);
  }
});
