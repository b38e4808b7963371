/**
 * `record --judge --live-port`: the recorder reports as the watcher does, from the same live judge. Traffic
 * through the proxy to the correct reference server, a Free key sent on past its quota and its 429s' Retry-After,
 * shows on /metrics as judged exchanges, on the page with the verdict so far, and in /conformance.json; at exit
 * the early requests are a warning under the key's pseudonym; no key appears anywhere; a taken port is one
 * line, exit 2.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { RULE } from '../../lib/checks/registry.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { DEMO_KEY_ENV, ROOT, cleanEnv, explain, finished, tempDir } from '../replay/support.ts';

const FREE_KEY = 'demo-free-1';
/** The Free plan's quota a minute (fixtures/plans.yaml), and a few requests past it. */
const FREE_PER_MINUTE = 60;
const SENT = FREE_PER_MINUTE + 3;
/**
 * A pause between the requests past the quota longer than the judge's allowance for a request that may have
 * crossed the 429 on the wire (a tenth of a second, for traffic that gives no better evidence): each is early.
 */
const PAUSE_MS = 200;
function startRecorder(upstream: string, dir: string, livePort: string) {
  return spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'record', join(dir, 'live.har'), '--base-url', upstream, '--port', '0', '--judge', '--live-port', livePort, '--output', join(dir, 'reports')], {
    cwd: ROOT,
    env: cleanEnv(DEMO_KEY_ENV),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The proxy's base URL and the live server's origin, as the recorder prints them. */
function addresses(recorder: ReturnType<typeof startRecorder>): Promise<{ proxy: string; live: string }> {
  return new Promise((resolve, reject) => {
    let proxy: string | undefined;
    createInterface({ input: recorder.stdout }).on('line', (line) => {
      proxy ??= /listening on (http:\/\/\S+\/v1)/.exec(line)?.[1];
      const live = /verdict so far on (http:\/\/\S+)\/ /.exec(line)?.[1];
      if (proxy && live) resolve({ proxy, live });
    });
    recorder.once('exit', (code) => reject(new Error(`the recorder exited with ${code}`)));
  });
}

function metric(text: string, series: string): number {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

test('the recorder serves the live judge\'s metrics, page and report so far, with no key', async () => {
  const dir = tempDir('record-live');
  const upstream = await spawnReferenceServer({});
  try {
    const recorder = startRecorder(upstream.baseUrl, dir, '0');
    const done = finished(recorder);
    const { proxy, live } = await addresses(recorder);
    const statuses: number[] = [];
    for (let sent = 0; sent < SENT; sent++) {
      if (statuses.includes(429)) await wait(PAUSE_MS);
      statuses.push((await fetch(`${proxy}/pets?limit=2`, { headers: { authorization: `Bearer ${FREE_KEY}` } })).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(1);

    const metrics = await (await fetch(`${live}/metrics`)).text();
    expect(metric(metrics, `petstore_watch_exchanges_judged_total{rule="${RULE['documented-status']}"}`)).toBe(SENT);
    expect(metric(metrics, 'petstore_watch_exchanges_read_total')).toBe(SENT);
    // The 429s' early requests are judged once each 429's wait has passed (client-rule-judge.ts): not yet.
    expect(metric(metrics, 'petstore_watch_rule_failures_total{rule="RL-1",level="MUST"}')).toBe(0);
    expect(metric(metrics, 'petstore_watch_lag_seconds')).toBe(0);
    expect(metrics).not.toContain(FREE_KEY);

    const page = await (await fetch(`${live}/`)).text();
    expect(page).toContain('Pet Store conformance, recorded live');
    expect(page).toContain('Exchanges judged a minute');
    expect(page).toContain('RL-1');
    expect(page).not.toContain(FREE_KEY);
    const soFar = (await (await fetch(`${live}/conformance.json`)).json()) as ConformanceReport;
    expect(soFar.rules.find((row) => row.id === RULE['documented-status'])?.verdict).toBe('pass');
    expect(soFar.target.url).toContain('recording proxy');
    expect(JSON.stringify(soFar)).not.toContain(FREE_KEY);

    recorder.kill('SIGINT');
    const recorded = await done;
    // At exit every wait is closed: the requests sent within the 429s' Retry-After break ERR-3 (a SHOULD: a
    // warning), named by the key's pseudonym. Traffic never certifies: Not certified, exit 3.
    expect(recorded.code, explain(recorded)).toBe(3);
    const report = readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8');
    expect((JSON.parse(report) as ConformanceReport).rules.find((row) => row.id === 'ERR-3')?.warnings[0]?.text).toMatch(/^\[ERR-3\] key free-1: \d+ requests? sent before the Retry-After/);
    expect(report).not.toContain(FREE_KEY);
  } finally {
    await upstream.stop();
  }
});

test('a --live-port in use is one line and exit 2, and --live-port without --judge is refused', async () => {
  const dir = tempDir('record-live-taken');
  const upstream = await spawnReferenceServer({});
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const port = String((taken.address() as { port: number }).port);
    const refused = await finished(startRecorder(upstream.baseUrl, dir, port));
    expect(refused.code, explain(refused)).toBe(2);
    expect(refused.stderr.trim()).toBe(`petstore-conformance record: --live-port ${port} is in use; pass another port, or 0 for a free one`);
    const alone = await finished(spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'record', join(dir, 'x.har'), '--base-url', upstream.baseUrl, '--live-port', '0'], { cwd: ROOT, env: cleanEnv(DEMO_KEY_ENV) }));
    expect(alone.code, explain(alone)).toBe(2);
    expect(alone.stderr).toContain('--live-port goes with --judge');
  } finally {
    taken.close();
    await upstream.stop();
  }
});
