/**
 * A fleet whose gateways each count on their own, on real parts: two Debian nginx, each configured as the how-to
 * writes it and each in front of its own reference server (15-second windows), driven at once on one Free key.
 * Each gateway admits 40 of the window's 60, so the fleet admits 80. Each log alone shows nothing wrong; the two
 * logs merged by time show 80 admissions under one Reset and fail PLAN-FREE; concatenated (`cat a.log b.log`) they
 * are put back in order and judged as merged while they span less than the judge's buffer, and refused in one line
 * naming the entry and the buffer once they span more: never judged quietly as two separate windows. Windows the
 * two servers opened seconds apart name Resets more than a second apart: merged, the key's Reset moves back and
 * forth by more than its resolution, which fails RL-7 where the plan's rule cannot see the fleet's count.
 * Skipped, saying how to get nginx, where there is none.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { REORDER_MS } from '../../harness/judge/traffic-judge.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { startVariant, type VariantTarget } from '../suite/support/variant-target.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { h2Request, NGINX_HINT, nginxPath, OPENSSL_HINT, opensslPath, startNginx, type Gateway } from './nginx.ts';
import { failures, tempDir } from './support.ts';

/** Windows of 15 s: a minute's quota, four times faster. */
const SCALE = 4;
const FREE = DEMO_KEYS.free[0] as string;
const NAMED = { [FREE]: 'free-1' };
/** Each gateway's share of the window: within the Free quota of 60 alone, 80 for the fleet. */
const EACH = 40;
/** Both gateways run on this machine's clock. */
const CLOCK_SKEW_MS = 0;

skipWithout(nginxPath() !== undefined, NGINX_HINT);
skipWithout(opensslPath() !== undefined, OPENSSL_HINT);
test.setTimeout(40_000);

async function judged(log: string): Promise<ConformanceReport> {
  const { report } = await judgeCapture(log, { env: {}, clockSkewMs: CLOCK_SKEW_MS, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });
  return report;
}

/** `count` requests on the Free key, one after another through `gateway`: the statuses. */
async function drive(gateway: Gateway, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await h2Request(gateway.baseUrl, gateway.ca, { path: '/pets?limit=5', authorization: `Bearer ${FREE}` })).status);
  return statuses;
}

/**
 * Waits until early in a second: each server opens its window at the key's first request and names its end in
 * whole seconds, so two windows opened a few milliseconds apart name the same Reset unless a second starts between.
 */
async function earlyInASecond(): Promise<void> {
  const into = Date.now() % 1000;
  if (into >= 20 && into < 300) return;
  await new Promise((resolve) => setTimeout(resolve, (1020 - into) % 1000));
}

interface Line {
  responseHeaders: Record<string, string>;
}

function lines(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '');
}

/** The gateways' logs as they stand, copied side by side as a.log and b.log, as a fleet's logs are collected. */
function collected(gateways: readonly Gateway[]): string {
  const dir = tempDir('fleet');
  gateways.forEach((gateway, i) => copyFileSync(gateway.accessLog, join(dir, `${'ab'[i]}.log`)));
  return dir;
}

/** Two reference servers, each with its own count, each behind an nginx configured as the how-to writes it. */
async function withFleet(body: (gateways: [Gateway, Gateway]) => Promise<void>): Promise<void> {
  const servers: VariantTarget[] = [];
  const gateways: Gateway[] = [];
  try {
    servers.push(...(await Promise.all([startVariant({ timeScale: SCALE }), startVariant({ timeScale: SCALE })])));
    gateways.push(...(await Promise.all(servers.map((server) => startNginx(server.baseUrl, NAMED)))));
    await body(gateways as [Gateway, Gateway]);
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** The Resets the logs in `dir` name. */
function resetsIn(dir: string): string[] {
  const resets = ['a.log', 'b.log'].flatMap((log) => lines(join(dir, log))).map((line) => (JSON.parse(line) as Line).responseHeaders['x-ratelimit-reset'] as string);
  return [...new Set(resets)];
}

/** The how-to's commands that merge a fleet's logs by time, as the page writes them (each names a.log b.log). */
function howToMerges(): string[] {
  const page = readFileSync(new URL('../../docs/how-to/judge-traffic.md', import.meta.url), 'utf8');
  const commands = [...page.matchAll(/`((?:sort|jq) [^`]*a\.log b\.log)`/g)].map((match) => match[1] as string);
  if (commands.length !== 2) throw new Error(`docs/how-to/judge-traffic.md names ${commands.length} commands that merge a.log and b.log, not the sort and jq ones this test runs`);
  return commands;
}

/** `command`, run by the shell in `dir`, its output written to `name` there. */
function shell(dir: string, command: string, name: string): string {
  const run = spawnSync('/bin/sh', ['-c', `${command} > ${name}`], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr.trim()}`);
  return join(dir, name);
}

/**
 * What traffic through one gateway shows of a correct server: nothing against it; the plan's rule and the countdown
 * only partly (no window seen to end shows the limiter's kind).
 */
const ALONE: Record<string, string> = {
  'RESP-1': 'pass',
  'RESP-3': 'pass',
  'AUTH-5': 'pass',
  'PLAN-FREE': 'partly-checked',
  'RL-GAP-2': 'observed',
  'RL-4': 'pass',
  'RL-5': 'pass',
  'RL-6': 'partly-checked',
  'RL-7': 'pass',
  'RL-GAP-3': 'observed',
  'VER-3': 'pass',
};
/**
 * The fleet's traffic: 80 admissions under one Reset fail the plan, and Remaining with them: each value said twice
 * within seconds, well before that Reset, is a countdown no order and no kind of limiter explains
 * (admissions-in-a-span.ts). Two countdowns interleaved skip Remaining values, as requests a capture does not hold
 * do: RL-7 is then judged only on what holds whatever was not seen.
 */
const MERGED: Record<string, string> = { ...ALONE, 'PLAN-FREE': 'fail', 'RL-6': 'fail', 'RL-7': 'partly-checked' };

/** The verdict of each rule the traffic judged, observed or partly checked: the ones it skipped or that do not apply left out. */
function judgedRules(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.rules.filter((row) => row.verdict !== 'skipped' && row.verdict !== 'not-run').map((row) => [row.id, row.verdict]));
}

/** Each rule's verdict and messages, the exchanges' numbers left out: they differ as their places in the files do. */
function verdicts(report: ConformanceReport): Array<[string, string, string[]]> {
  return report.rules.map((row) => [row.id, row.verdict, row.failures.map((note) => note.text.replace(/exchanges? [\d, …]+/g, 'exchanges …'))]);
}

test('two nginx gateways each counting one Free key alone: each log fails nothing, merged or concatenated they fail PLAN-FREE and RL-6, and concatenated beyond the buffer they are refused in one line', async () => {
  await withFleet(async (gateways) => {
    const [a, b] = gateways;
    await earlyInASecond();
    const started = Date.now();
    const [throughA, throughB] = await Promise.all([drive(a, EACH), drive(b, EACH)]);
    expect(throughA.concat(throughB), 'every request admitted: each gateway counts 40 of its own 60').toEqual(Array(2 * EACH).fill(200));
    // The request sent once the buffer has passed must still be well inside the 15-s window.
    expect(Date.now() - started, 'the burst took less than 8 s (a machine this loaded cannot run this test)').toBeLessThan(8_000);
    // The logs as they stand after the burst: each spans well under the buffer.
    const short = collected(gateways);
    const resets = resetsIn(short);
    expect(resets, "both servers' windows name one Reset").toHaveLength(1);
    const reset = resets[0] as string;
    const planFailed = new RegExp(`^\\[PLAN-FREE\\] 61 admitted under one Reset \\(${reset}\\) whose limit is 60`);

    for (const log of ['a.log', 'b.log']) {
      const alone = await judged(join(short, log));
      expect(failures(alone), `${log} alone`).toEqual({});
      expect(judgedRules(alone), `${log} alone`).toEqual(ALONE);
    }

    const mergedReports = await Promise.all(howToMerges().map((command, i) => judged(shell(short, command, `merged-${i}.log`))));
    for (const merged of mergedReports) {
      expect(judgedRules(merged)).toEqual(MERGED);
      expect(failures(merged)['PLAN-FREE']).toMatch(planFailed);
      expect(merged.verdict.failedMust).toEqual(['PLAN-FREE', 'RL-6']);
    }

    // Concatenated within the buffer: put back in order, the merged verdict rule by rule.
    expect(verdicts(await judged(shell(short, 'cat a.log b.log', 'concatenated.log')))).toEqual(verdicts(mergedReports[0] as ConformanceReport));

    // One more request through A once more than the buffer has passed, still in the same window: now `cat a.log b.log`
    // goes back in time at b.log's first line further than the judge puts in order.
    // Counted from b.log's first line as nginx timed it, not from the burst's start: on a loaded machine that line can
    // come a second or more after it, and the request through A would then fall within the buffer (no refusal).
    const firstOfBAt = Number((JSON.parse(lines(join(short, 'b.log'))[0] as string) as { time: string }).time) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstOfBAt + REORDER_MS + CLOCK_SKEW_MS + 1_000 - Date.now())));
    expect(await drive(a, 1)).toEqual([200]);
    const long = collected(gateways);
    const refused = judged(shell(long, 'cat a.log b.log', 'concatenated.log'));
    await expect(refused).rejects.toThrow(/^concatenated\.log: entry \d+ goes back in time 1\d\.\d s before answers already read, more than the 10 s within which answers are put back in order: merge captures by time first/);
    await expect(refused).rejects.toThrow(/^[^\n]*$/);
    // The entry named is one of b.log's, which follow all of a.log's (counted as written: a loaded machine's nginx
    // may log a line of its own before the burst), and among b.log's first: the burst took under 8 s of the 11.
    const named = Number(/entry (\d+)/.exec(await refused.then(() => '', (error: Error) => error.message))?.[1]);
    const firstOfB = lines(join(long, 'a.log')).length + 1;
    expect(named, 'the first line of b.log the buffer cannot put back').toBeGreaterThanOrEqual(firstOfB);
    expect(named).toBeLessThan(firstOfB + EACH);
    // Merged by time, as the refusal asks, the fleet's window is judged whole again.
    for (const [i, command] of howToMerges().entries()) {
      const merged = await judged(shell(long, command, `merged-${i}.log`));
      expect(judgedRules(merged), command).toEqual(MERGED);
      expect(failures(merged)['PLAN-FREE'], command).toMatch(planFailed);
    }
  });
});

test('two nginx gateways each counting one Free key alone, their windows opened seconds apart: merged, the key\'s Reset goes back and forth between the two, and RL-7 fails', async () => {
  await withFleet(async ([a, b]) => {
    expect(await drive(a, 1)).toEqual([200]);
    // B's window opens more than two seconds after A's: its Reset is two or three whole seconds later, more than the
    // second two nodes may round one end apart by (a Reset is known only to its second).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const [throughA, throughB] = await Promise.all([drive(a, EACH - 1), drive(b, EACH)]);
    expect(throughA.concat(throughB)).toEqual(Array(2 * EACH - 1).fill(200));
    const logs = collected([a, b]);
    expect(resetsIn(logs), "the servers' windows name two Resets").toHaveLength(2);
    for (const log of ['a.log', 'b.log']) expect(judgedRules(await judged(join(logs, log))), `${log} alone`).toEqual(ALONE);
    for (const [i, command] of howToMerges().entries()) {
      const merged = await judged(shell(logs, command, `merged-${i}.log`));
      // No one Reset admitted more than 60: the plan's rule shows nothing; the key's Reset moving back does.
      expect(judgedRules(merged), command).toEqual({ ...ALONE, 'RL-7': 'fail' });
      expect(failures(merged)['RL-7'], command).toMatch(/^\[RL-7\] Limit 60: expected X-RateLimit-Reset to stay at \d+ within the window \(it had not ended\), got \d+: it moved back/);
    }
  });
});
