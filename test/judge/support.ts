/**
 * What the judge's tests share: traffic recorded through the real recording proxy from the reference server
 * (a correct one, a broken one, a legitimate variant) while the real load client drives it, judged in this
 * process, and the rules a report failed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { judgeCapture } from '../../harness/judge/judge-capture.ts';
import { knownKeys } from '../../harness/record/credentials.ts';
import { startRecordingProxy } from '../../harness/record/proxy.ts';
import { RECORDER } from '../../harness/record/recorder-info.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { runAgainst, type KeyPlan } from '../load/support/run.ts';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `petstore-judge-${prefix}-`));
}

export interface RecordOptions {
  limiter?: RateLimiter;
  timeScale: number;
  keys: KeyPlan[];
  durationMs: number;
}

/** Load traffic at the reference server (with `limiter` in place of its own, if given), recorded through the proxy. */
export async function recordLoad(options: RecordOptions): Promise<string> {
  const server = await createReferenceServer({ timeScale: options.timeScale }, options.limiter ? { limiter: options.limiter } : {});
  const capture = join(tempDir('capture'), 'load.har.ndjson');
  const writer = await CaptureWriter.open(capture, RECORDER);
  const proxy = await startRecordingProxy({ upstream: server.baseUrl, port: 0, writer, keys: knownKeys({}) });
  try {
    await runAgainst(proxy.baseUrl, options.keys, options.durationMs, options.timeScale);
  } finally {
    await proxy.close();
    await writer.close();
    await server.close();
  }
  return capture;
}

export async function judged(capture: string, env: NodeJS.ProcessEnv = {}): Promise<ConformanceReport> {
  const { report } = await judgeCapture(capture, { env, clockSkewMs: 1_000, run: { suiteVersion: 'test', rulesHash: 'test', gitCommit: 'test' } });
  return report;
}

/** Each failed rule with its first message, for an assertion that reads as what went wrong. */
export function failures(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.rules.filter((row) => row.verdict === 'fail').map((row) => [row.id, row.failures[0]?.text ?? '']));
}

export function verdictOf(report: ConformanceReport, rule: string): string {
  return report.rules.find((row) => row.id === rule)?.verdict ?? 'absent';
}

/** A copy of an NDJSON capture without every other exchange of each key: what a second proxy, or sampling, leaves. */
export function everyOtherOfEachKey(capture: string): string {
  const seen = new Map<string, number>();
  const kept = readFileSync(capture, 'utf8')
    .split('\n')
    .filter((line) => {
      if (line.trim() === '') return false;
      const entry = JSON.parse(line) as { request: { headers: Array<{ name: string; value: string }> } };
      const key = entry.request.headers.find((header) => header.name.toLowerCase() === 'authorization')?.value ?? '';
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      return index % 2 === 0;
    });
  const half = join(tempDir('half'), 'half.har.ndjson');
  writeFileSync(half, `${kept.join('\n')}\n`);
  return half;
}
