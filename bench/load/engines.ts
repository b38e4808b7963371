/**
 * The load command's engines side by side, on the same target in one run: plain Locust (FastHttpUser, one
 * GET per task, no checks: plain_locustfile.py), the Locust engine (the scenario's own locustfile.py as
 * `load --export` writes it, started with the commands it prints) and the built-in engine. Each sends GET
 * /pets?limit=20 with an Enterprise key whose quota is lifted, as fast as it can (`--rate max --mix list=1`),
 * from the same number of users (Locust) or connections (built-in).
 *
 * Requests per CPU-second: for the two Locust runs, of the same master and workers while the test ran
 * (sampled from /proc, start-up left out); for the built-in engine, of the whole load command. In each round
 * the two Locust runs go at the same time against the same target, each with its master and workers, so the
 * machine's other load (and each other's) falls on both alike and their ratio is measured within the round;
 * the built-in engine runs alone after them.
 *
 *   npm run bench:load:engines [-- --rounds 3 --seconds 8 --concurrency 32 --workers 2]
 *
 * Writes reports/bench/load-engines.json and prints a Markdown table and the engine's ratio to plain Locust.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { locustCommands } from '../../harness/load/engine/commands.ts';
import { ensureLocust } from '../../harness/load/engine/locust-binary.ts';
import { readRunPlan } from '../../harness/load/engine/locust-engine.ts';
import { RESULT_FILE, RUN_PLAN_FILE } from '../../harness/load/engine/run-plan.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { wholeFlag } from '../whole-flag.ts';
import { locustCpuSeconds } from './locust-processes.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '32' },
    workers: { type: 'string', default: '2' },
  },
});
const rounds = wholeFlag(values.rounds, 'rounds');
const seconds = wholeFlag(values.seconds, 'seconds');
const concurrency = wholeFlag(values.concurrency, 'concurrency');
const workers = wholeFlag(values.workers, 'workers');

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'harness/load/main.ts');
const PLAIN_LOCUSTFILE = fileURLToPath(new URL('plain_locustfile.py', import.meta.url));
const KEY = 'demo-enterprise-1';
const CONTENDERS = ['plain Locust', 'Locust engine', 'built-in engine'] as const;
type Contender = (typeof CONTENDERS)[number];
const SERVER_ENV = { PETSTORE_LOG: 'off', PETSTORE_ENTERPRISE_PER_MINUTE: '1000000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000000000' };
const SCENARIO = ['--plan', 'enterprise', '--rate', 'max', '--mix', 'list=1', '--concurrency', String(concurrency), '--duration', `${seconds}s`];

interface Measure {
  sent: number;
  perSecond: number;
  cpuSeconds: number;
  perCpuSecond: number;
}

function measureOf(sent: number, cpuSeconds: number): Measure {
  return { sent, perSecond: Math.round(sent / seconds), cpuSeconds, perCpuSecond: Math.round(sent / cpuSeconds) };
}

function load(args: string[], env: NodeJS.ProcessEnv, timed = false): Promise<string> {
  const command = `${timed ? "TIMEFORMAT='%3U %3S'; time " : ''}"${process.execPath}" --import tsx "${MAIN}" ${args.map((arg) => `'${arg}'`).join(' ')} >/dev/null`;
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', command], { cwd: ROOT, env }, (error, _stdout, stderr) => (error ? reject(new Error(stderr.trim().split('\n').at(-1))) : resolve(stderr)));
  });
}

async function builtin(baseUrl: string): Promise<Measure> {
  const out = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  try {
    const stderr = await load(['--engine', 'builtin', ...SCENARIO, '--output', out], { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY_ENTERPRISE: KEY }, true);
    const [user, system] = stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { keys: Array<{ sent: number; errors: number }> };
    const key = summary.keys[0];
    if (!key || user === undefined || system === undefined) throw new Error(`built-in: no figures: ${stderr.trim()}`);
    if (key.errors > 0) throw new Error(`built-in: ${key.errors} errors; the figures would not be comparable`);
    return measureOf(key.sent, user + system);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The scenario exported as the engine's Locust test, in a directory of its own. */
async function exportEngine(baseUrl: string): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  const env = { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY_ENTERPRISE: KEY };
  await load(['--engine', 'locust', '--workers', String(workers), ...SCENARIO, '--export', dir], env);
  return { dir, env };
}

async function engine(locust: string, { dir, env }: { dir: string; env: NodeJS.ProcessEnv }): Promise<Measure> {
  try {
    const plan = readRunPlan(join(dir, RUN_PLAN_FILE));
    const commands = locustCommands(plan, workers);
    const cpuSeconds = await locustCpuSeconds({ locust, master: commands.master, worker: commands.worker, workers, env, cwd: dir });
    const result = JSON.parse(readFileSync(join(dir, RESULT_FILE), 'utf8')) as { windows: Array<Record<'admitted' | 'refused' | 'late', { count: number }>>; loose: Array<{ count: number; status: number }> };
    const errors = result.loose.filter((entry) => entry.status === 0 || entry.status >= 500).reduce((sum, entry) => sum + entry.count, 0);
    if (errors > 0) throw new Error(`Locust engine: ${errors} errors; the figures would not be comparable`);
    const sent = result.windows.reduce((sum, w) => sum + w.admitted.count + w.refused.count + w.late.count, 0) + result.loose.reduce((sum, entry) => sum + entry.count, 0);
    return measureOf(sent, cpuSeconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function plain(locust: string, baseUrl: string, users: number): Promise<Measure> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  try {
    const env = { ...process.env, PETSTORE_API_KEY_ENTERPRISE: KEY };
    const master = ['-f', PLAIN_LOCUSTFILE, '--master', '--headless', '--expect-workers', String(workers), '-u', String(users), '-r', String(users), '-t', `${seconds}s`, '--stop-timeout', '5', '-H', baseUrl, '--only-summary', '--csv', join(dir, 'plain')];
    const cpuSeconds = await locustCpuSeconds({ locust, master, worker: ['-f', PLAIN_LOCUSTFILE, '--worker'], workers, env, cwd: dir });
    const [header = '', ...rows] = readFileSync(join(dir, 'plain_stats.csv'), 'utf8').trim().split('\n');
    const columns = header.split(',');
    const total = rows.find((row) => row.includes(',Aggregated,'))?.split(',') ?? [];
    const failures = Number(total[columns.indexOf('Failure Count')]);
    if (failures > 0) throw new Error(`plain Locust: ${failures} failures; the figures would not be comparable`);
    return measureOf(Number(total[columns.indexOf('Request Count')]), cpuSeconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const locust = ensureLocust((line) => process.stderr.write(`${line}\n`));
const server = await spawnReferenceServer({ env: SERVER_ENV });
try {
  // The engine's users for this scenario, so plain Locust runs as many.
  const probe = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  await load(['--engine', 'locust', '--workers', String(workers), ...SCENARIO, '--export', probe], { ...process.env, PETSTORE_BASE_URL: server.baseUrl });
  const users = locustCommands(readRunPlan(join(probe, RUN_PLAN_FILE)), workers).users;
  rmSync(probe, { recursive: true, force: true });

  const results = Object.fromEntries(CONTENDERS.map((name) => [name, [] as Measure[]])) as Record<Contender, Measure[]>;
  for (let round = 1; round <= rounds; round++) {
    // The two Locust runs at the same time, so whatever else the machine does weighs on both alike.
    process.stderr.write(`bench: round ${round}/${rounds}, plain Locust and the Locust engine side by side…\n`);
    const exported = await exportEngine(server.baseUrl);
    const [plainRun, engineRun] = await Promise.all([plain(locust, server.baseUrl, users), engine(locust, exported)]);
    results['plain Locust'].push(plainRun);
    results['Locust engine'].push(engineRun);
    process.stderr.write(`bench: round ${round}/${rounds}, built-in engine…\n`);
    results['built-in engine'].push(await builtin(server.baseUrl));
  }
  const rows = CONTENDERS.map((name) => {
    const runs = results[name];
    return [name, String(median(runs.map((r) => r.perSecond))), String(median(runs.map((r) => r.perCpuSecond))), runs.map((r) => `${r.perSecond} / ${r.perCpuSecond}`).join(', ')];
  });
  const ratios = results['Locust engine'].map((run, i) => run.perCpuSecond / (results['plain Locust'][i]?.perCpuSecond ?? Number.NaN));
  mkdirSync(join(ROOT, 'reports/bench'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/bench/load-engines.json'), `${JSON.stringify({ rounds, seconds, concurrency, workers, users, results, ratios }, null, 2)}\n`);
  process.stdout.write(
    `${markdownTable(['engine', 'requests/s (median)', 'requests per CPU-second (median)', 'each round: req/s / per CPU-s'], rows)}\n\n` +
      `Locust engine per CPU-second: ${median(ratios).toFixed(2)} of plain Locust's (median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')}), ${users} users on ${workers} workers.\n`,
  );
} finally {
  await server.stop();
}
