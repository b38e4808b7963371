/**
 * `petstore-conformance watch` as an operator runs it: it follows a log being written, serves the judge's
 * findings on /metrics in OpenMetrics text (no key in it) and the verdict so far on / and as /conformance.json,
 * stops on SIGTERM with the judged period written as the judge's report (exit 3: traffic alone never certifies),
 * and resumes from its state file without judging a line twice. Bad input is one line with the command's prefix,
 * exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ensureJudgeCapture } from '../../bench/judge/capture.ts';
import { readEvidence } from '../../lib/verdicts/evidence-files.ts';
import { tempDir } from '../judge/support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'watch'];

interface LiveReport {
  generatedAt: string;
  target: { url: string };
  evidence: { label: string };
}

async function watchUntil(args: string[], judged: (metrics: string) => boolean): Promise<{ code: number | null; metrics: string; stdout: string; page: string; live: LiveReport }> {
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
  const page = await (await fetch(url.replace(/metrics$/, ''))).text();
  const live = (await (await fetch(url.replace(/metrics$/, 'conformance.json'))).json()) as LiveReport;
  child.kill('SIGTERM');
  return { code: await closed, metrics, stdout, page, live };
}

test('watch serves the judge\'s findings, writes the report at exit and resumes from its state without judging a line twice', async () => {
  const dir = tempDir('watch-command');
  const capture = join(dir, 'capture.ndjson');
  await ensureJudgeCapture(capture, 1_200, 4, () => {});
  const lines = readFileSync(capture, 'utf8').trimEnd().split('\n');
  const log = join(dir, 'access.log');
  writeFileSync(log, `${lines.slice(0, 800).join('\n')}\n`);
  const args = [log, '--port', '0', '--state', join(dir, 'state.json'), '--output', join(dir, 'report'), '--label', 'production, live', '--base-url', 'https://api.example.com/v1'];

  const first = await watchUntil(args, (metrics) => metrics.includes('petstore_watch_exchanges_judged_total{rule="RESP-1"} 800'));
  expect(first.metrics).not.toMatch(/Bearer|authorization/i);
  expect(first.metrics).toMatch(/petstore_watch_open_windows \d/);
  expect(first.code).toBe(3);
  // While it runs: the page, and the period so far as a report with its date, target and label.
  expect(first.page).toContain('Pet Store conformance, watched live');
  expect(first.page).toContain('Exchanges judged a minute');
  expect(first.live.evidence.label).toBe('production, live');
  expect(Date.parse(first.live.generatedAt)).toBeGreaterThan(0);
  // certify --evidence reads both, the period so far and the report written at exit, as evidence of the --base-url.
  const live = join(dir, 'live', 'conformance.json');
  mkdirSync(join(dir, 'live'));
  writeFileSync(live, JSON.stringify(first.live));
  const evidences = readEvidence([live, join(dir, 'report')], dir);
  expect(evidences).toHaveLength(2);
  for (const { evidence } of evidences) {
    expect(evidence).toMatchObject({ label: 'production, live', target: { baseUrl: 'https://api.example.com/v1' } });
  }
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
