/**
 * npm run bench:replay [-- --exchanges 100000 --concurrency 16]
 *
 * Replays a large capture (recorded once, then kept under reports/bench/replay/) as fast as possible
 * against the bundled reference server, every response checked and compared, and measures throughput and
 * peak memory. Memory is bounded when a capture ten times larger needs about the same peak RSS; the
 * throughput goal is 2,000 exchanges per second. A bare replay (nothing checked) of the same capture in
 * the same run is the peer: the machine is shared and noisy, so the ratio means more than either figure.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import type { ReplaySummary } from '../../harness/replay/summary.ts';
import { bareReplay } from './bare-replay.ts';
import { ensureCapture } from './capture.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'reports', 'bench', 'replay');
const GOAL_PER_SECOND = 2_000;
/**
 * Memory is bounded when the live heap (after full collections) for the large capture stays within this
 * factor of the small one's. Peak RSS is reported too, but it follows how far V8 lets the heap grow
 * between collections, which depends on the run's speed more than on what the replay holds.
 */
const BOUNDED_FACTOR = 1.5;

const { values } = parseArgs({ options: { exchanges: { type: 'string' }, concurrency: { type: 'string' } } });
const large = Number(values.exchanges ?? 100_000);
const small = Math.max(1_000, Math.round(large / 10));
const concurrency = Number(values.concurrency ?? 16);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

interface Measured {
  exchanges: number;
  seconds: number;
  perSecond: number;
  peakRssMb: number;
  peakLiveHeapMb: number;
  violations: number;
  differences: number;
}

async function replay(capture: string, reportDir: string): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'harness', 'replay', 'main.ts'), capture, '--speed', '0', '--concurrency', String(concurrency), '--report-dir', reportDir], {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_'))) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the replay of ${capture} exited with ${code}; see ${reportDir}/index.html`);
  const summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as ReplaySummary;
  return {
    exchanges: summary.exchanges,
    seconds: summary.durationMs / 1000,
    perSecond: summary.throughput.exchangesPerSecond,
    peakRssMb: summary.process.peakRssMb,
    peakLiveHeapMb: summary.process.peakLiveHeapMb,
    violations: summary.violations.exchanges,
    differences: summary.differences.exchanges,
    ...{ wallSeconds: (performance.now() - started) / 1000 },
  };
}

mkdirSync(OUT, { recursive: true });
const smallCapture = join(OUT, `capture-${small}.har.ndjson`);
const largeCapture = join(OUT, `capture-${large}.har.ndjson`);
await ensureCapture(smallCapture, small, log);
await ensureCapture(largeCapture, large, log);

log(`replaying ${small} exchanges (concurrency ${concurrency}) ...`);
const smallRun = await replay(smallCapture, join(OUT, `run-${small}`));
log(`replaying ${large} exchanges (concurrency ${concurrency}) ...`);
const largeRun = await replay(largeCapture, join(OUT, `run-${large}`));

log(`bare replay of ${large} exchanges (peer, nothing checked) ...`);
const server = await spawnReferenceServer({ env: { PETSTORE_LOG: 'off' } });
const bare = await bareReplay(largeCapture, server.baseUrl, concurrency, `Bearer ${DEMO_KEYS.enterprise[0]}`).finally(() => server.stop());
const barePerSecond = Math.round(bare.exchanges / bare.seconds);

const bounded = largeRun.peakLiveHeapMb <= Math.max(1, smallRun.peakLiveHeapMb) * BOUNDED_FACTOR;
const fastEnough = largeRun.perSecond >= GOAL_PER_SECOND;
const results = {
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  concurrency,
  small: smallRun,
  large: largeRun,
  bare: { exchanges: bare.exchanges, seconds: Math.round(bare.seconds * 10) / 10, perSecond: barePerSecond },
  checkedToBare: Math.round((largeRun.perSecond / barePerSecond) * 100) / 100,
  goals: { perSecond: GOAL_PER_SECOND, met: fastEnough, memoryBounded: bounded, boundedFactor: BOUNDED_FACTOR },
};
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const table = [
  '| Capture | Exchanges/s (every response checked) | Peak live heap | Peak RSS | Violations | Differences |',
  '|---|---|---|---|---|---|',
  `| ${small.toLocaleString('en')} exchanges | ${smallRun.perSecond.toLocaleString('en')} | ${smallRun.peakLiveHeapMb} MB | ${smallRun.peakRssMb} MB | ${smallRun.violations} | ${smallRun.differences} |`,
  `| ${large.toLocaleString('en')} exchanges | ${largeRun.perSecond.toLocaleString('en')} | ${largeRun.peakLiveHeapMb} MB | ${largeRun.peakRssMb} MB | ${largeRun.violations} | ${largeRun.differences} |`,
  `| ${large.toLocaleString('en')}, bare peer (nothing checked) | ${barePerSecond.toLocaleString('en')} | | | | |`,
].join('\n');
writeFileSync(join(OUT, 'results.md'), `${table}\n`);
log(`\n${table}\n`);
log(`checked / bare throughput: ${results.checkedToBare}`);
log(`throughput goal (${GOAL_PER_SECOND}/s): ${fastEnough ? 'met' : 'MISSED'}; memory bounded (peak live heap ${largeRun.peakLiveHeapMb} MB for ${large} vs ${smallRun.peakLiveHeapMb} MB for ${small}): ${bounded ? 'yes' : 'NO'}`);
process.exitCode = fastEnough && bounded ? 0 : 1;
