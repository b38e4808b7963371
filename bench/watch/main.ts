/**
 * npm run bench:watch [-- --rate 20000 --seconds 180 --keys 50 --shards 1]
 *
 * `petstore-conformance watch` keeping up with a log that grows at `--rate` lines a second of real time, for
 * `--seconds`, while the log's clock runs a day of target time in that span (a fast clock: a day in 180 s is 480
 * target seconds a second, so a minute window lasts 125 ms). The lines are the judge benchmark's (a correct
 * fixed-window limiter, clients that rest out each Retry-After: bench/judge/capture.ts), written as they are made.
 * Every second the watcher's own metrics say how many exchanges it has judged, and /proc its CPU and resident
 * memory: what it judges per CPU-second (per core), how far behind the writer it is (the time since the last line
 * it has judged was written), and whether memory stays flat over the day.
 * The goal: one process keeps up with 20,000 exchanges a second, its lag under 2 s. `--shards n` runs n watchers
 * over the same log, each `--shard i/n`: their judged exchanges add up, their lag is the worst one's (each
 * watcher's own petstore_watch_lag_seconds), their CPU adds up, memory is per process.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
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

const { values } = parseArgs({ options: { rate: { type: 'string' }, seconds: { type: 'string' }, keys: { type: 'string' }, shards: { type: 'string' } } });
const shardCount = wholeFlag(values.shards ?? '1', 'shards');
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
const watchers = await Promise.all(
  Array.from({ length: shardCount }, async (_, at) => {
    const port = await freePort();
    const shard = shardCount > 1 ? ['--shard', `${at + 1}/${shardCount}`] : [];
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'petstore-conformance.js'), 'watch', log, '--port', String(port), '--output', join(OUT, `report-${at + 1}`), ...shard], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    return { child, port, exited: new Promise<number | null>((resolve) => child.once('close', resolve)) };
  }),
);
await waitForMetrics();

const out = openSync(log, 'a');
const clients = new CorrectClients(keys);
/** When each batch of lines was written: (real ms since the start, lines written by then). */
const writes: Array<[number, number]> = [];
const samples: Sample[] = [];
const started = performance.now();
/** Slots of the clock filled so far (a slot where every key rests writes nothing), and lines written. */
let slots = 0;
let written = 0;
// Read on a timer of its own: a reading waits while a watcher is busy judging, and the writer must not.
const sampler = setInterval(() => void sample().then((each) => samples.push(each)), 1_000);
for (let tick = 1; ; tick++) {
  const elapsed = performance.now() - started;
  if (elapsed >= seconds * 1000) break;
  // At most a second's lines a tick: a writer starved of CPU falls behind its rate (the table says so) rather than
  // making one line of gigabytes.
  const due = Math.min(Math.floor((elapsed / 1000) * rate), slots + rate);
  const lines: string[] = [];
  for (; slots < due; slots++) {
    const line = clients.exchangeAt(START_MS + (slots / rate) * 1000 * clockRate, slots);
    if (line !== undefined) lines.push(JSON.stringify(line));
  }
  if (lines.length > 0) writeSync(out, `${lines.join('\n')}\n`);
  written += lines.length;
  writes.push([performance.now() - started, written]);
  await wait(Math.max(0, tick * TICK_MS - (performance.now() - started)));
}
const writingSeconds = (performance.now() - started) / 1000;
closeSync(out);
clearInterval(sampler);
// Let them catch up, then a last reading.
await wait(3_000);
samples.push(await sample());
samples.sort((a, b) => a.atS - b.atS);
for (const watcher of watchers) watcher.child.kill('SIGTERM');
await Promise.all(watchers.map((watcher) => watcher.exited));

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
  ['Watchers', 'Lines/s asked (written)', 'Target time', 'Judged/s (steady)', 'Judged per CPU-second', 'Lag median (s)', 'Lag max (s)', 'RSS first quarter (MB, per watcher)', 'RSS last quarter (MB)', 'RSS max (MB)', 'Judged at the end / written'],
  [[String(shardCount), `${rate.toLocaleString('en-US')} (${Math.round(written / writingSeconds).toLocaleString('en-US')} written)`, `1 day in ${seconds} s (clock x${Math.round(clockRate)})`, Math.round(judgedPerSecond).toLocaleString('en-US'), Math.round(perCpuSecond).toLocaleString('en-US'), median(lags).toFixed(2), maxLag.toFixed(2), rssFirst.toFixed(0), rssLast.toFixed(0), Math.max(...steady.map((each) => each.rssMb)).toFixed(0), `${last.judged.toLocaleString('en-US')} / ${written.toLocaleString('en-US')}`]],
);
const verdicts = [
  `${judgedPerSecond >= GOAL_RATE * 0.98 && maxLag < GOAL_LAG_S ? 'met' : 'NOT met'}: ${Math.round(judgedPerSecond).toLocaleString('en-US')} exchanges judged a second with a lag of at most ${maxLag.toFixed(2)} s (goal ${GOAL_RATE.toLocaleString('en-US')}/s, under ${GOAL_LAG_S} s)`,
  `memory ${rssLast <= rssFirst * 1.2 ? 'flat' : 'NOT flat'}: ${rssFirst.toFixed(0)} MB resident over the first quarter of the day, ${rssLast.toFixed(0)} MB over the last`,
];
const series = samples.map((each) => `${each.atS.toFixed(0)} s: written ${each.written}, judged ${each.judged}, lag ${each.lagS.toFixed(2)} s, ${each.cpuS.toFixed(1)} CPU-s, ${each.rssMb.toFixed(0)} MB`).join('\n');
writeFileSync(join(OUT, 'results.md'), `${table}\n\n${verdicts.map((line) => `- ${line}`).join('\n')}\n\nEvery second:\n\n\`\`\`\n${series}\n\`\`\`\n`);
process.stdout.write(`\n${table}\n\n${verdicts.join('\n')}\nreports/bench/watch/results.md\n`);
rmSync(log, { force: true });

/**
 * The watchers' judged exchanges (summed), CPU seconds (summed) and resident memory (the largest), and the lag:
 * for one watcher, how long ago the first line it has not judged was written; for shards, the worst watcher's own
 * lag gauge (a shard's count of judged exchanges says nothing of the lines it skipped).
 */
async function sample(): Promise<Sample> {
  const readings = await Promise.all(watchers.map((watcher) => metricsOf(watcher.port)));
  const atMs = performance.now() - started;
  const judged = readings.reduce((sum, reading) => sum + reading.judged, 0);
  // The first batch holding a line not yet judged: the lag is how long ago it was written.
  const pending = writes.find(([, count]) => count > judged);
  const lagS = shardCount > 1 ? Math.max(...readings.map((reading) => reading.lagS)) : pending === undefined ? 0 : Math.max(0, atMs - pending[0]) / 1000;
  let cpuS = 0;
  let rssMb = 0;
  for (const { child } of watchers) {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 1/100 s (USER_HZ on Linux).
    cpuS += (Number(fields[11]) + Number(fields[12])) / 100;
    rssMb = Math.max(rssMb, Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  }
  return { atS: atMs / 1000, written, judged, lagS, cpuS, rssMb };
}

async function metricsOf(port: number): Promise<{ judged: number; lagS: number }> {
  const lines = (await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).split('\n');
  const value = (prefix: string): number => {
    const line = lines.find((each) => each.startsWith(prefix));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return { judged: value(`petstore_watch_exchanges_judged_total{rule="${EVERY_EXCHANGE}"}`), lagS: value('petstore_watch_lag_seconds ') };
}

async function waitForMetrics(): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      await Promise.all(watchers.map((watcher) => metricsOf(watcher.port)));
      return;
    } catch {
      await wait(100);
    }
  }
  throw new Error('a watcher never served /metrics');
}
