/**
 * npm run bench:judge [-- --exchanges 1000000 --keys 50 --rounds 3 --har-exchanges 200000 --only judge|drift]
 *
 * Judges a generated capture of a million exchanges (capture.ts, kept under reports/bench/judge/) in a
 * process of its own, and one ten times smaller, in alternating rounds, with a peer in each round: the same
 * capture given only the contract check replay gives every answer. The goals: at least 15,000 exchanges
 * judged a second (replay's goal for checked exchanges), and memory bounded by the keys and their open
 * windows, not by the exchanges: the large capture's live heap within 1.5 times the small one's.
 *
 * Then the whole `judge` command against Redocly's `drift` on one HAR of `--har-exchanges` (the same kind of
 * traffic as one HAR document, har.ts), a pair a round (versus-drift.ts). The goal: the judge at least twice
 * drift's rate. `--only` runs one of the two parts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wholeFlag } from '../whole-flag.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { ensureJudgeCapture } from './capture.ts';
import { ensureJudgeHar } from './har.ts';
import { judgeVersusDrift, type DriftPair } from './versus-drift.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'reports', 'bench', 'judge');
const GOAL_PER_SECOND = 15_000;
const BOUNDED_FACTOR = 1.5;
const GOAL_OVER_DRIFT = 2;

const { values } = parseArgs({ options: { exchanges: { type: 'string' }, keys: { type: 'string' }, rounds: { type: 'string' }, 'har-exchanges': { type: 'string' }, only: { type: 'string' } } });
if (values.only !== undefined && values.only !== 'judge' && values.only !== 'drift') throw new Error(`--only takes judge (the judge's own rounds) or drift (the judge against drift), not "${values.only}"`);
const harExchanges = wholeFlag(values['har-exchanges'] ?? '200000', 'har-exchanges');
const large = wholeFlag(values.exchanges ?? '1000000', 'exchanges');
const small = Math.max(10_000, Math.round(large / 10));
const keys = wholeFlag(values.keys ?? '50', 'keys');
const rounds = wholeFlag(values.rounds ?? '3', 'rounds');


interface Measured {
  exchanges: number;
  seconds: number;
  perSecond: number;
  peakLiveHeapMb: number;
  peakRssMb: number;
  openWindowsAtEnd: number;
  failing: string[];
}

const log = (line: string): void => void process.stdout.write(`${line}\n`);

const SUPPORTED_NODE = '22.12 or later';

/** Whether this Node is one the package's `engines` names: the judge's figures are quoted for those. */
function onSupportedNode(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

async function judgeOnce(capture: string, mode: 'judge' | 'checks-only' = 'judge'): Promise<Measured> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench', 'judge', 'run-judge.ts'), capture, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`judging ${capture} exited with ${code}`);
  return JSON.parse(out) as Measured;
}

/** The judge's own rounds: its rate, what its rules cost over the contract check alone, its memory. */
async function judgeRounds(): Promise<{ markdown: string; json: object }> {
  const largeCapture = join(OUT, `capture-${large}.ndjson`);
  const smallCapture = join(OUT, `capture-${small}.ndjson`);
  await ensureJudgeCapture(largeCapture, large, keys, log);
  await ensureJudgeCapture(smallCapture, small, keys, log);

  const measured: Array<{ large: Measured; small: Measured; checksOnly: Measured }> = [];
  for (let round = 1; round <= rounds; round++) {
    const big = await judgeOnce(largeCapture);
    const checksOnly = await judgeOnce(largeCapture, 'checks-only');
    const little = await judgeOnce(smallCapture);
    if (big.failing.length > 0 || little.failing.length > 0) throw new Error(`the generated capture of a correct limiter failed ${[...big.failing, ...little.failing].join(', ')}`);
    log(`round ${round}: judged ${Math.round(big.perSecond).toLocaleString('en-US')}/s, contract check only ${Math.round(checksOnly.perSecond).toLocaleString('en-US')}/s, over ${big.exchanges.toLocaleString('en-US')} exchanges; live heap ${big.peakLiveHeapMb.toFixed(1)} MB (${little.peakLiveHeapMb.toFixed(1)} MB for ${little.exchanges.toLocaleString('en-US')})`);
    measured.push({ large: big, small: little, checksOnly });
  }

  const perSecond = median(measured.map((round) => round.large.perSecond));
  const toChecksOnly = median(measured.map((round) => round.large.perSecond / round.checksOnly.perSecond));
  const heapRatio = median(measured.map((round) => round.large.peakLiveHeapMb / round.small.peakLiveHeapMb));
  const table = markdownTable(
    ['Round', `Exchanges judged/s (${large.toLocaleString('en-US')})`, 'Contract check only/s', 'Judged / check only', 'Live heap, large (MB)', `Live heap, ${small.toLocaleString('en-US')} (MB)`, 'Peak RSS, large (MB)', 'Windows open at the end'],
    measured.map((round, index) => [String(index + 1), Math.round(round.large.perSecond).toLocaleString('en-US'), Math.round(round.checksOnly.perSecond).toLocaleString('en-US'), (round.large.perSecond / round.checksOnly.perSecond).toFixed(2), round.large.peakLiveHeapMb.toFixed(1), round.small.peakLiveHeapMb.toFixed(1), round.large.peakRssMb.toFixed(0), String(round.large.openWindowsAtEnd)]),
  );
  const verdicts = [
    `${perSecond >= GOAL_PER_SECOND ? 'met' : 'NOT met'}: median ${Math.round(perSecond).toLocaleString('en-US')} exchanges judged a second (goal ${GOAL_PER_SECOND.toLocaleString('en-US')})`,
    `judging costs ${((1 / toChecksOnly - 1) * 100).toFixed(0)}% more than the contract check alone (median judged / check only ${toChecksOnly.toFixed(2)})`,
    `${heapRatio <= BOUNDED_FACTOR ? 'met' : 'NOT met'}: the live heap of ${large.toLocaleString('en-US')} exchanges is ${heapRatio.toFixed(2)} times that of ${small.toLocaleString('en-US')} (goal at most ${BOUNDED_FACTOR})`,
  ];
  return { markdown: `${table}\n\n${verdicts.map((line) => `- ${line}`).join('\n')}\n`, json: { large, small, keys, rounds: measured, perSecond, toChecksOnly, heapRatio } };
}

/** The whole judge command against drift on one HAR, a pair a round. */
async function driftRounds(): Promise<{ markdown: string; json: object }> {
  const har = join(OUT, `capture-${harExchanges}.har`);
  await ensureJudgeHar(har, harExchanges, keys, log);
  const pairs: DriftPair[] = [];
  for (let round = 1; round <= rounds; round++) {
    const pair = await judgeVersusDrift(ROOT, har);
    log(`round ${round}: judge ${pair.judge.wallSeconds.toFixed(1)} s (${pair.judge.cpuSeconds.toFixed(1)} CPU-s), drift ${pair.drift.wallSeconds.toFixed(1)} s (${pair.drift.cpuSeconds.toFixed(1)} CPU-s): the judge ${pair.wallRatio.toFixed(2)}x drift's rate`);
    pairs.push(pair);
  }
  const rate = (seconds: number): string => Math.round(harExchanges / seconds).toLocaleString('en-US');
  const table = markdownTable(
    ['Round', 'judge: s (CPU-s)', 'judge exchanges/s', 'judge peak RSS (MB)', 'drift: s (CPU-s)', 'drift exchanges/s', 'drift peak RSS (MB)', 'judge / drift, rate', 'judge / drift, CPU'],
    pairs.map((pair, index) => [String(index + 1), `${pair.judge.wallSeconds.toFixed(1)} (${pair.judge.cpuSeconds.toFixed(1)})`, rate(pair.judge.wallSeconds), pair.judge.peakRssMb.toFixed(0), `${pair.drift.wallSeconds.toFixed(1)} (${pair.drift.cpuSeconds.toFixed(1)})`, rate(pair.drift.wallSeconds), pair.drift.peakRssMb.toFixed(0), pair.wallRatio.toFixed(2), pair.cpuRatio.toFixed(2)]),
  );
  const wallRatio = median(pairs.map((pair) => pair.wallRatio));
  const cpuRatio = median(pairs.map((pair) => pair.cpuRatio));
  const verdict = `${wallRatio >= GOAL_OVER_DRIFT ? 'met' : 'NOT met'}: the judge at a median ${wallRatio.toFixed(2)} times drift's rate on ${harExchanges.toLocaleString('en-US')} exchanges (${cpuRatio.toFixed(2)} times by CPU; goal at least ${GOAL_OVER_DRIFT}), both on Node ${process.versions.node}${onSupportedNode() ? '' : `, which the package does not support (it asks for ${SUPPORTED_NODE}): tsx loads modules slower there, so run \`bash scripts/on-node.sh 22 npm run bench:judge\``}`;
  return { markdown: `${table}\n\n- ${verdict}\n`, json: { harExchanges, pairs, wallRatio, cpuRatio } };
}

mkdirSync(OUT, { recursive: true });
const judged = values.only === 'drift' ? undefined : await judgeRounds();
const versusDrift = values.only === 'judge' ? undefined : await driftRounds();
const markdown = [judged?.markdown, versusDrift && `## The judge against drift\n\n${versusDrift.markdown}`].filter(Boolean).join('\n');
writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify({ judged: judged?.json, versusDrift: versusDrift?.json }, null, 2)}\n`);
log(`\n${markdown}\nreports/bench/judge/results.md`);
