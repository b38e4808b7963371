/**
 * npm run bench:replay [-- --exchanges 100000 --concurrency 16 --rounds 3]
 *
 * Replays a large capture (recorded once, then kept under reports/bench/replay/) as fast as possible
 * against a fresh reference server, every response checked and compared, and, in each round of the same
 * run, three peers against a fresh server of the same kind: the ordered replay (the same replay with
 * nothing checked or compared: what checking costs), the bare replay (node:http, nothing checked or
 * ordered) and the raw client (lib/http/client.ts, the load script's path, the capture's requests
 * prebuilt, nothing read, checked or ordered). The machine is shared and noisy, so each round puts the three side by side and the
 * medians decide: at least 15,000 checked exchanges per second, and at least half the raw client's rate.
 * Memory is bounded when a capture ten times smaller needs about the same live heap.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import type { ReplaySummary } from '../../harness/replay/summary.ts';
import { wholeFlag } from '../whole-flag.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { bareReplay } from './bare-replay.ts';
import { ensureCapture } from './capture.ts';
import { orderedReplay } from './ordered-replay.ts';
import { rawReplay } from './raw-replay.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'reports', 'bench', 'replay');
const GOAL_PER_SECOND = 15_000;
const GOAL_TO_RAW = 0.5;
/**
 * Memory is bounded when the live heap (after full collections) for the large capture stays within this
 * factor of the small one's. Peak RSS is reported too, but it follows how far V8 lets the heap grow
 * between collections, which depends on the run's speed more than on what the replay holds.
 */
const BOUNDED_FACTOR = 1.5;

const { values } = parseArgs({ options: { exchanges: { type: 'string' }, concurrency: { type: 'string' }, rounds: { type: 'string' } } });
const large = wholeFlag(values.exchanges ?? '100000', 'exchanges');
const small = Math.max(1_000, Math.round(large / 10));
const concurrency = wholeFlag(values.concurrency ?? '16', 'concurrency');
const rounds = wholeFlag(values.rounds ?? '3', 'rounds');


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
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'harness', 'replay', 'main.ts'), capture, '--speed', '0', '--concurrency', String(concurrency), '--output', reportDir], {
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
  };
}

/** A peer run against a fresh reference server of its own, configured as the replay's bundled one. */
async function peer(run: typeof bareReplay): Promise<number> {
  const server = await spawnReferenceServer({ env: { PETSTORE_LOG: 'off' } });
  const measured = await run(largeCapture, server.baseUrl, concurrency, `Bearer ${DEMO_KEYS.enterprise[0]}`).finally(() => server.stop());
  return Math.round(measured.exchanges / measured.seconds);
}

mkdirSync(OUT, { recursive: true });
const smallCapture = join(OUT, `capture-${small}.har.ndjson`);
const largeCapture = join(OUT, `capture-${large}.har.ndjson`);
await ensureCapture(smallCapture, small, log);
await ensureCapture(largeCapture, large, log);

log(`replaying ${small} exchanges (concurrency ${concurrency}), for the memory bound ...`);
const smallRun = await replay(smallCapture, join(OUT, `run-${small}`));

interface Round {
  checked: Measured;
  ordered: number;
  bare: number;
  raw: number;
  checkedToOrdered: number;
  checkedToRaw: number;
}
const measuredRounds: Round[] = [];
for (let round = 1; round <= rounds; round++) {
  log(`round ${round}/${rounds}: checked replay, ordered replay, bare node:http replay and raw client, ${large} exchanges each (concurrency ${concurrency}) ...`);
  const checked = await replay(largeCapture, join(OUT, `run-${large}`));
  const ordered = await peer(orderedReplay);
  const bare = await peer(bareReplay);
  const raw = await peer(rawReplay);
  measuredRounds.push({ checked, ordered, bare, raw, checkedToOrdered: checked.perSecond / ordered, checkedToRaw: checked.perSecond / raw });
}

const medians = {
  checked: median(measuredRounds.map((round) => round.checked.perSecond)),
  ordered: median(measuredRounds.map((round) => round.ordered)),
  bare: median(measuredRounds.map((round) => round.bare)),
  raw: median(measuredRounds.map((round) => round.raw)),
  checkedToOrdered: median(measuredRounds.map((round) => round.checkedToOrdered)),
  checkedToRaw: median(measuredRounds.map((round) => round.checkedToRaw)),
};
const largest = measuredRounds.reduce((a, b) => (b.checked.peakLiveHeapMb > a.checked.peakLiveHeapMb ? b : a)).checked;
const bounded = largest.peakLiveHeapMb <= Math.max(1, smallRun.peakLiveHeapMb) * BOUNDED_FACTOR;
const fastEnough = medians.checked >= GOAL_PER_SECOND;
const closeToRaw = medians.checkedToRaw >= GOAL_TO_RAW;
const results = {
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  concurrency,
  rounds: measuredRounds,
  medians,
  small: smallRun,
  goals: { perSecond: GOAL_PER_SECOND, checkedToRaw: GOAL_TO_RAW, met: fastEnough && closeToRaw, memoryBounded: bounded, boundedFactor: BOUNDED_FACTOR },
};
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const figure = (value: number): string => Math.round(value).toLocaleString('en');
const ratio = (value: number): string => value.toFixed(2);
const throughput = markdownTable(
  ['Round', 'Checked replay/s (every response checked)', 'Ordered replay/s (nothing checked)', 'Bare replay/s (node:http, nothing checked or ordered)', 'Raw client/s (lib/http, nothing read)', 'Checked / ordered', 'Checked / raw'],
  [
    ...measuredRounds.map((round, index) => [
      String(index + 1),
      figure(round.checked.perSecond),
      figure(round.ordered),
      figure(round.bare),
      figure(round.raw),
      ratio(round.checkedToOrdered),
      ratio(round.checkedToRaw),
    ]),
    ['median', figure(medians.checked), figure(medians.ordered), figure(medians.bare), figure(medians.raw), ratio(medians.checkedToOrdered), ratio(medians.checkedToRaw)],
  ],
);
const memory = markdownTable(
  ['Capture', 'Peak live heap', 'Peak RSS', 'Violations', 'Differences'],
  [
    [`${small.toLocaleString('en')} exchanges`, `${smallRun.peakLiveHeapMb} MB`, `${smallRun.peakRssMb} MB`, String(smallRun.violations), String(smallRun.differences)],
    ...measuredRounds.map((round, index) => [`${large.toLocaleString('en')} exchanges, round ${index + 1}`, `${round.checked.peakLiveHeapMb} MB`, `${round.checked.peakRssMb} MB`, String(round.checked.violations), String(round.checked.differences)]),
  ],
);
writeFileSync(join(OUT, 'results.md'), `${throughput}\n\n${memory}\n`);
log(`\n${throughput}\n\n${memory}\n`);
log(`checked replay (median ${figure(medians.checked)}/s; goal ${figure(GOAL_PER_SECOND)}/s): ${fastEnough ? 'met' : 'MISSED'}; checked / raw (median ${ratio(medians.checkedToRaw)}; goal ${GOAL_TO_RAW}): ${closeToRaw ? 'met' : 'MISSED'}`);
log(`memory bounded (peak live heap ${largest.peakLiveHeapMb} MB for ${large} vs ${smallRun.peakLiveHeapMb} MB for ${small}): ${bounded ? 'yes' : 'NO'}`);
process.exitCode = fastEnough && closeToRaw && bounded ? 0 : 1;
