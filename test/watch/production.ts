/**
 * The parts an operator runs around `petstore-conformance watch`, as the field test starts them: the watcher as a
 * process (restartable on one port), Debian's Prometheus scraping it every second and evaluating the shipped
 * alerting rules every second, read through its HTTP API, Debian's logrotate in either mode with nginx told to
 * reopen its log, and the clients that drive a gateway: a polite one (waits as its 429s ask) and a hammering one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { freePort } from '../../lib/free-port.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SHIPPED_RULES = join(ROOT, 'fixtures', 'alerts', 'petstore-watch.rules.yml');

export interface WatcherProcess {
  origin: string;
  output: () => string;
  /** SIGTERM, then what it said it judged (its last line before the report). */
  stop(): Promise<{ code: number | null; lines: number; exchanges: number }>;
}

/** `petstore-conformance watch <log>` on `port`, its position in `state`, its report in `output`. */
export function startWatcher(log: string, port: number, state: string, output: string): Promise<WatcherProcess> {
  return watcherWith([log, '--state', state], port, output);
}

/** `petstore-conformance watch --syslog <address>` on `port`, its report in `output`. */
export function startSyslogWatcher(address: string, port: number, output: string): Promise<WatcherProcess> {
  return watcherWith(['--syslog', address], port, output);
}

async function watcherWith(source: string[], port: number, output: string): Promise<WatcherProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'watch', ...source, '--port', String(port), '--output', output, '--base-url', 'https://api.example.com/petstore/v1', '--label', 'production, watched'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  await expect.poll(() => text, { timeout: 60_000, message: 'the watcher starts' }).toContain('watching ');
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => text,
    async stop() {
      child.kill('SIGTERM');
      const code = await closed;
      const said = /watched ([\d,]+) lines of [^,]+, ([\d,]+) exchanges judged/.exec(text);
      if (!said) throw new Error(`the watcher did not say what it judged:\n${text}`);
      return { code, lines: Number((said[1] as string).replace(/,/g, '')), exchanges: Number((said[2] as string).replace(/,/g, '')) };
    },
  };
}

export interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
}

export interface Prometheus {
  url: string;
  alerts(): Promise<Alert[]>;
  query(expression: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  stop(): Promise<void>;
}

/** Debian's prometheus as the how-to configures it, scraping `target` and evaluating `rules` every second, in its own folder. */
export async function startPrometheus(binary: string, dir: string, target: string, rules: string): Promise<Prometheus> {
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, replaced(testedBlock('prometheus.yml'), [['15s', '1s'], ['node_modules/petstore-conformance/fixtures/alerts/petstore-watch.rules.yml', rules], ["'127.0.0.1:9464'", `'${target}'`]]));
  const child: ChildProcess = spawn(binary, [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: T };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${JSON.stringify(body)}`);
    return body.data;
  };
  await expect.poll(async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.status, { timeout: 60_000, message: `prometheus starts:\n${log}` }).toBe(200);
  return {
    url,
    alerts: async () => (await api<{ alerts: Alert[] }>('/api/v1/alerts')).alerts,
    query: async (expression) => (await api<{ result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(`/api/v1/query?query=${encodeURIComponent(expression)}`)).result,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Debian's logrotate forced once over `log`, as the how-to configures it, in `mode`; `create` has nginx reopen. */
export function rotate(logrotate: string, dir: string, log: string, mode: 'create' | 'copytruncate', nginxPid: string): void {
  const config = join(dir, `logrotate-${mode}.conf`);
  writeFileSync(config, logrotateConfig(log, mode, nginxPid), { mode: 0o644 });
  const result = spawnSync(logrotate, ['-f', '-s', join(dir, 'logrotate.state'), config], { encoding: 'utf8', timeout: 30_000 });
  expect(result.status, `logrotate ${mode}: ${result.stderr}`).toBe(0);
}

/** The how-to's logrotate stanza (docs/how-to/watch-production.md, as tested), with the test's paths; copytruncate as the page says. */
function logrotateConfig(log: string, mode: 'create' | 'copytruncate', nginxPid: string): string {
  const create = replaced(testedBlock('logrotate create'), [['/var/log/nginx/petstore.log', log], ['/run/nginx.pid', nginxPid]]);
  if (mode === 'create') return `${create}\n`;
  const signal = /^ {2}create\n {2}postrotate\n[\s\S]*?endscript\n/m;
  if (!signal.test(create)) throw new Error("the how-to's logrotate stanza no longer ends its create with a postrotate: update test/watch/production.ts with the page");
  return `${create.replace(signal, '  copytruncate\n')}\n`;
}

/** The fenced block after `<!-- tested: MARK -->` in docs/how-to/watch-production.md, as written. */
export function testedBlock(mark: string): string {
  const page = readFileSync(new URL('../../docs/how-to/watch-production.md', import.meta.url), 'utf8');
  const at = page.indexOf(`<!-- tested: ${mark} -->`);
  const block = at < 0 ? undefined : /^```[a-z]*\n([\s\S]*?)\n```/m.exec(page.slice(at))?.[1];
  if (!block) throw new Error(`docs/how-to/watch-production.md has no fenced block after "<!-- tested: ${mark} -->"`);
  return block;
}

/** `text` with each of `replacements` made, each required to find its text, so the page cannot drift from what runs. */
function replaced(text: string, replacements: ReadonlyArray<readonly [string, string]>): string {
  let out = text;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`a tested block of docs/how-to/watch-production.md no longer holds "${from}": update test/watch/production.ts with the page`);
    out = out.split(from).join(to);
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface Load {
  /** Exchanges answered, by key. */
  answered: Map<string, number>;
  refused: Map<string, number>;
  done: Promise<void>;
  /** Ends the clients after their request in flight. */
  stop(): void;
}

/**
 * Clients on `keys` until `untilMs`, one request at a time each, GET /pets every `gapMs`: polite ones wait out a
 * 429's Retry-After (and a little more) before the next request; hammering ones send on as if nothing was said.
 */
export function driveLoad(baseUrl: string, keys: ReadonlyArray<{ key: string; name: string; hammer?: boolean }>, untilMs: number, gapMs: number): Load {
  const answered = new Map<string, number>();
  const refused = new Map<string, number>();
  let until = untilMs;
  const client = async ({ key, name, hammer }: { key: string; name: string; hammer?: boolean }): Promise<void> => {
    while (Date.now() < until) {
      const response = await fetch(`${baseUrl}/pets?limit=5`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      answered.set(name, (answered.get(name) ?? 0) + 1);
      if (response.status === 429) {
        refused.set(name, (refused.get(name) ?? 0) + 1);
        if (!hammer) await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000 + 200);
      }
      await sleep(gapMs);
    }
  };
  return { answered, refused, done: Promise.all(keys.map(client)).then(() => undefined), stop: () => void (until = 0) };
}

export function total(counts: ReadonlyMap<string, number>): number {
  return [...counts.values()].reduce((sum, n) => sum + n, 0);
}

/** Polls Prometheus's alerts every second until `until` holds of them or `timeoutMs` passes; every alert seen on the way. */
export async function watchAlerts(prometheus: Prometheus, timeoutMs: number, until: (alerts: Alert[]) => boolean = () => false): Promise<{ seen: Alert[]; met: boolean; afterMs: number }> {
  const started = Date.now();
  const seen: Alert[] = [];
  while (Date.now() - started < timeoutMs) {
    const alerts = await prometheus.alerts();
    seen.push(...alerts);
    if (until(alerts)) return { seen, met: true, afterMs: Date.now() - started };
    await sleep(1_000);
  }
  return { seen, met: false, afterMs: Date.now() - started };
}
