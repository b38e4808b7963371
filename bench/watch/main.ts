/**
 * npm run bench:watch [-- --rate 20000 --seconds 180 --keys 50]
 *
 * `petstore-conformance watch` keeping up with a log that grows at `--rate` lines a second of real time, for
 * `--seconds`, while the log's clock runs a day of target time in that span (a fast clock: a day in 180 s is 480
 * target seconds a second, so a minute window lasts 125 ms). The lines are the judge benchmark's (a correct
 * fixed-window limiter, clients that rest out each Retry-After: bench/judge/capture.ts), written as they are made.
 * Every second the watcher's own metrics say how many exchanges it has judged, and /proc its CPU and resident
 * memory: what it judges per CPU-second (per core), how far behind the writer it is (the time since the last line
 * it has judged was written), and whether memory stays flat over the day.
 * The goal: one process keeps up with 20,000 exchanges a second, its lag under 2 s.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as wait } from 'node:timers/promises';
import { RULE } from '../../lib/checks/registry.ts';
import { freePort } from '../../lib/free-port.ts';
import { CorrectClients, START_MS } from '../judge/capture.ts';
import { markdownTable, median } from '../server/autocannon.ts';
import { wholeFlag } from '../whole-flag.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'reports', 'bench', 'watch');
const DAY_MS = 86_400_000;
const TICK_MS = 50;
const GOAL_RATE = 20_000;
const GOAL_LAG_S = 2;
/** The exchange every answered exchange of the contract's operations is judged on. */
const EVERY_EXCHANGE = RULE['documented-status'];

const { values } = parseArgs({ options: { rate: { type: 'string' }, seconds: { type: 'string' }, keys: { type: 'string' } } });
const rate = wholeFlag(values.rate ?? String(GOAL_RATE), 'rate');
const seconds = wholeFlag(values.seconds ?? '180', 'seconds');
const keys = wholeFlag(values.keys ?? '50', 'keys');
const clockRate = DAY_MS / (seconds * 1000);

interface Sample {
  atS: number;
  written: number;
  judged: number;
  lagS: number;
  cpuS: number;
  rssMb: number;
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const log = join(OUT, 'access.log');
writeFileSync(log, '');
const port = await freePort();
const watcher = spawn(process.execPath, [join(ROOT, 'bin', 'petstore-conformance.js'), 'watch', log, '--port', String(port), '--output', join(OUT, 'report')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const exited = new Promise<number | null>((resolve) => watcher.once('close', resolve));
await waitForMetrics();

const out = createWriteStream(log, { flags: 'a' });
const clients = new CorrectClients(keys);
/** When each batch of lines was written: (real ms since the start, lines written by then). */
const writes: Array<[number, number]> = [];
const samples: Sample[] = [];
const started = performance.now();
/** Slots of the clock filled so far (a slot where every key rests writes nothing), and lines written. */
let slots = 0;
let written = 0;
let nextSample = 1_000;
for (let tick = 1; ; tick++) {
  const elapsed = performance.now() - started;
  if (elapsed >= seconds * 1000) break;
  const due = Math.floor((elapsed / 1000) * rate);
  const lines: string[] = [];
  for (; slots < due; slots++) {
    const line = clients.exchangeAt(START_MS + (slots / rate) * 1000 * clockRate, slots);
    if (line !== undefined) lines.push(JSON.stringify(line));
  }
  if (lines.length > 0) out.write(`${lines.join('\n')}\n`);
  written += lines.length;
  writes.push([performance.now() - started, written]);
  if (elapsed >= nextSample) {
    samples.push(await sample(performance.now() - started));
    nextSample += 1_000;
  }
  await wait(Math.max(0, tick * TICK_MS - (performance.now() - started)));
}
out.end();
// Let it catch up, then a last reading.
await wait(3_000);
samples.push(await sample(performance.now() - started));
watcher.kill('SIGTERM');
await exited;

const steady = samples.filter((each) => each.atS >= 10 && each.atS <= seconds);
const quarter = Math.max(1, Math.floor(steady.length / 4));
const rssFirst = median(steady.slice(0, quarter).map((each) => each.rssMb));
const rssLast = median(steady.slice(-quarter).map((each) => each.rssMb));
const last = samples.at(-1) as Sample;
const first = steady[0] as Sample;
const end = steady.at(-1) as Sample;
const judgedPerSecond = (end.judged - first.judged) / (end.atS - first.atS);
const perCpuSecond = (end.judged - first.judged) / (end.cpuS - first.cpuS);
const lags = steady.map((each) => each.lagS);
const maxLag = Math.max(...lags);
const table = markdownTable(
  ['Written/s', 'Target time', 'Judged/s (steady)', 'Judged per CPU-second', 'Lag median (s)', 'Lag max (s)', 'RSS first quarter (MB)', 'RSS last quarter (MB)', 'RSS max (MB)', 'Judged at the end / written'],
  [[rate.toLocaleString('en-US'), `1 day in ${seconds} s (clock x${Math.round(clockRate)})`, Math.round(judgedPerSecond).toLocaleString('en-US'), Math.round(perCpuSecond).toLocaleString('en-US'), median(lags).toFixed(2), maxLag.toFixed(2), rssFirst.toFixed(0), rssLast.toFixed(0), Math.max(...steady.map((each) => each.rssMb)).toFixed(0), `${last.judged.toLocaleString('en-US')} / ${written.toLocaleString('en-US')}`]],
);
const verdicts = [
  `${judgedPerSecond >= GOAL_RATE * 0.98 && maxLag < GOAL_LAG_S ? 'met' : 'NOT met'}: ${Math.round(judgedPerSecond).toLocaleString('en-US')} exchanges judged a second with a lag of at most ${maxLag.toFixed(2)} s (goal ${GOAL_RATE.toLocaleString('en-US')}/s, under ${GOAL_LAG_S} s)`,
  `memory ${rssLast <= rssFirst * 1.2 ? 'flat' : 'NOT flat'}: ${rssFirst.toFixed(0)} MB resident over the first quarter of the day, ${rssLast.toFixed(0)} MB over the last`,
];
const series = samples.map((each) => `${each.atS.toFixed(0)} s: written ${each.written}, judged ${each.judged}, lag ${each.lagS.toFixed(2)} s, ${each.cpuS.toFixed(1)} CPU-s, ${each.rssMb.toFixed(0)} MB`).join('\n');
writeFileSync(join(OUT, 'results.md'), `${table}\n\n${verdicts.map((line) => `- ${line}`).join('\n')}\n\nEvery second:\n\n\`\`\`\n${series}\n\`\`\`\n`);
process.stdout.write(`\n${table}\n\n${verdicts.join('\n')}\nreports/bench/watch/results.md\n`);
rmSync(log, { force: true });

/** The watcher's count of judged exchanges, its CPU seconds and resident memory, and its lag behind the writer. */
async function sample(atMs: number): Promise<Sample> {
  const judged = await judgedSoFar();
  // The first batch holding a line not yet judged: the lag is how long ago it was written.
  const pending = writes.find(([, count]) => count > judged);
  const lagS = pending === undefined ? 0 : Math.max(0, atMs - pending[0]) / 1000;
  const stat = readFileSync(`/proc/${watcher.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, in clock ticks of 1/100 s (USER_HZ on Linux).
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${watcher.pid}/status`, 'utf8'))?.[1] ?? 0);
  return { atS: atMs / 1000, written, judged, lagS, cpuS: ticks / 100, rssMb: rssKb / 1024 };
}

async function judgedSoFar(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((each) => each.startsWith(`petstore_watch_exchanges_judged_total{rule="${EVERY_EXCHANGE}"}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function waitForMetrics(): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      await judgedSoFar();
      return;
    } catch {
      await wait(100);
    }
  }
  throw new Error('the watcher never served /metrics');
}
