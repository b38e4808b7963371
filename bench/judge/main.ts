/**
 * npm run bench:judge [-- --exchanges 1000000 --keys 50 --rounds 3]
 *
 * Judges a generated capture of a million exchanges (capture.ts, kept under reports/bench/judge/) in a
 * process of its own, and one ten times smaller, in alternating rounds, with a peer in each round: the same
 * capture given only the contract check replay gives every answer. The goals: at least 15,000 exchanges
 * judged a second (replay's goal for checked exchanges), and memory bounded by the keys and their open
 * windows, not by the exchanges: the large capture's live heap within 1.5 times the small one's.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wholeFlag } from '../whole-flag.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { ensureJudgeCapture } from './capture.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'reports', 'bench', 'judge');
const GOAL_PER_SECOND = 15_000;
const BOUNDED_FACTOR = 1.5;

const { values } = parseArgs({ options: { exchanges: { type: 'string' }, keys: { type: 'string' }, rounds: { type: 'string' } } });
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

async function judgeOnce(capture: string, mode: 'judge' | 'checks-only' = 'judge'): Promise<Measured> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench', 'judge', 'run-judge.ts'), capture, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`judging ${capture} exited with ${code}`);
  return JSON.parse(out) as Measured;
}

mkdirSync(OUT, { recursive: true });
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
writeFileSync(join(OUT, 'results.md'), `${table}\n\n${verdicts.map((line) => `- ${line}`).join('\n')}\n`);
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify({ large, small, keys, rounds: measured, perSecond, toChecksOnly, heapRatio }, null, 2)}\n`);
log(`\n${table}\n\n${verdicts.join('\n')}\nreports/bench/judge/results.md`);
