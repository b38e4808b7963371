/**
 * The load command's two engines on the same scenario and target, in one run: requests per second, and
 * requests per CPU-second of the generator (all of its processes: the load command, and for Locust its
 * master and workers), which is what a generator machine's core is worth. The target is one reference
 * server in a process of its own (logging off, an Enterprise key with the quota lifted); each round runs
 * `load --plan enterprise --rate max` once per engine, the order reversed every other round.
 *
 *   npm run bench:load:engines [-- --rounds 3 --seconds 5 --concurrency 32 --workers 2]
 *
 * Writes reports/bench/load-engines.json and prints a Markdown table.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { wholeFlag } from '../whole-flag.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
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
const KEY = 'demo-enterprise-1';
const ENGINES = ['builtin', 'locust'] as const;
const SERVER_ENV = { PETSTORE_LOG: 'off', PETSTORE_ENTERPRISE_PER_MINUTE: '1000000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000000000' };

interface Measure {
  sent: number;
  perSecond: number;
  cpuSeconds: number;
  perCpuSecond: number;
}

/** One `load` run timed by bash, whose `time` counts the CPU of every process the command started and waited for. */
function measure(engine: string, baseUrl: string): Promise<Measure> {
  const out = mkdtempSync(join(tmpdir(), 'bench-engines-'));
  const command = `TIMEFORMAT='%3U %3S'; time "${process.execPath}" --import tsx "${MAIN}" --engine ${engine} --workers ${workers} --plan enterprise --rate max --concurrency ${concurrency} --duration ${seconds}s --out "${out}" >/dev/null 2>"${out}/stderr"`;
  const env = { ...process.env, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY_ENTERPRISE: KEY };
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', command], { cwd: ROOT, env }, (error, _stdout, stderr) => {
      try {
        const [user, system] = stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
        const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { keys: Array<{ sent: number; errors: number }>; run: { elapsedMs: number } };
        const key = summary.keys[0];
        if (!key || user === undefined || system === undefined) throw new Error(`no figures: ${stderr.trim()}`);
        if (key.errors > 0) throw new Error(`${engine}: ${key.errors} errors; the figures would not be comparable`);
        const cpuSeconds = user + system;
        resolve({ sent: key.sent, perSecond: Math.round(key.sent / seconds), cpuSeconds, perCpuSecond: Math.round(key.sent / cpuSeconds) });
      } catch (failure) {
        reject(error ?? failure);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

const server = await spawnReferenceServer({ env: SERVER_ENV });
try {
  const results: Record<string, Measure[]> = Object.fromEntries(ENGINES.map((engine) => [engine, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? [...ENGINES] : [...ENGINES].reverse();
    for (const engine of order) {
      process.stderr.write(`bench: round ${round}/${rounds}, ${engine}…\n`);
      results[engine]?.push(await measure(engine, server.baseUrl));
    }
  }
  const rows = ENGINES.map((engine) => {
    const runs = results[engine] ?? [];
    return [engine, String(median(runs.map((r) => r.perSecond))), String(median(runs.map((r) => r.perCpuSecond))), runs.map((r) => `${r.perSecond} / ${r.perCpuSecond}`).join(', ')];
  });
  const builtinPerCpu = median((results.builtin ?? []).map((r) => r.perCpuSecond));
  const locustPerCpu = median((results.locust ?? []).map((r) => r.perCpuSecond));
  mkdirSync(join(ROOT, 'reports/bench'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/bench/load-engines.json'), `${JSON.stringify({ rounds, seconds, concurrency, workers, results }, null, 2)}\n`);
  process.stdout.write(`${markdownTable(['engine', 'requests/s (median)', 'requests per CPU-second (median)', 'each round: req/s / per CPU-s'], rows)}\n\nLocust per CPU-second: ${(locustPerCpu / builtinPerCpu).toFixed(2)} of the built-in client's.\n`);
} finally {
  await server.stop();
}
