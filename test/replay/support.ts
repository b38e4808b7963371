/**
 * What the replay tests share: running the record and replay commands as a user would (a child process,
 * with its exit code, stdout and stderr), small captures written on the fly, and the summary they leave.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReplaySummary } from '../../harness/replay/summary.ts';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { assertMatchesSchema } from '../support/report-schemas.ts';
import type { HarEntry } from '../../lib/capture/types.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SAMPLE_HAR = join(ROOT, 'fixtures', 'traffic', 'sample.har');
const TSX = import.meta.resolve('tsx');

/** PETSTORE_API_KEY_<PLAN> holding the demo keys, which the reference server accepts when none are configured. */
export const DEMO_KEY_ENV: Record<string, string> = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan].join(',')]));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment without anything that would point a command at another target or other keys. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('PETSTORE_')) env[name] = value;
  }
  return { ...env, ...extra };
}

export function startCommand(command: 'record' | 'replay', args: string[], env: Record<string, string> = cleanEnv()): ChildProcess {
  const main = join(ROOT, 'harness', command, 'main.ts');
  return spawn(process.execPath, ['--import', TSX, main, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function finished(child: ChildProcess): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The base URL a `record` process prints once its proxy listens. */
export function listeningProxy(recorder: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: recorder.stdout! }).on('line', (line) => {
      const url = /listening on (http:\/\/\S+\/v1)/.exec(line)?.[1];
      if (url) resolve(url);
    });
    recorder.once('exit', (code) => reject(new Error(`the recorder exited with ${code}`)));
  });
}

export function runCommand(command: 'record' | 'replay', args: string[], env?: Record<string, string>): Promise<CommandResult> {
  return finished(startCommand(command, args, env));
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

export function readSummary(reportDir: string): ReplaySummary {
  return assertMatchesSchema('replay-summary', JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as ReplaySummary);
}

/** A HAR document of the given entries, written to a temporary file. */
export function writeHar(dir: string, name: string, entries: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }, null, 1));
  return path;
}

/** The entries of a HAR file. */
export function harEntries(path: string): HarEntry[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
}

export interface EntrySketch {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  startedMs?: number;
}

/** A HAR entry from the few fields a test cares about. */
export function entry(sketch: EntrySketch): HarEntry {
  const list = (headers: Record<string, string> = {}) => Object.entries(headers).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: new Date(sketch.startedMs ?? Date.UTC(2026, 0, 1)).toISOString(),
    time: 1,
    request: {
      method: sketch.method ?? 'GET',
      url: sketch.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(sketch.headers),
      queryString: [],
      ...(sketch.body === undefined ? {} : { postData: { mimeType: 'application/json', text: sketch.body } }),
      headersSize: -1,
      bodySize: sketch.body?.length ?? 0,
    },
    response: {
      status: sketch.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(sketch.responseHeaders ?? { 'Content-Type': 'application/json' }),
      content: { size: sketch.responseBody?.length ?? 0, mimeType: 'application/json', text: sketch.responseBody ?? '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

/** Fails the test with the command's output when it did not exit as expected. */
export function explain(result: CommandResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}
