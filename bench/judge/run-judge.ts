/**
 * One judged capture in a process of its own, for the benchmark: its time, and its live heap (after a full
 * collection, every 10,000 exchanges) and peak RSS, printed as one JSON line. Run with --expose-gc.
 * `checks-only` is the peer: the same capture read the same way, each answer given only the contract check
 * that replay gives every answer (lib/response-checks.ts), so the difference is what the judge's own rules cost.
 */
import { basename } from 'node:path';
import { readCapture } from '../../lib/capture/read.ts';
import { toJudgedExchange } from '../../harness/judge/capture-entry.ts';
import { KeyBook } from '../../harness/judge/key-book.ts';
import { TrafficJudge } from '../../harness/judge/traffic-judge.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import { matchOperation } from '../../lib/contract.ts';
import { checkResponse } from '../../lib/response-checks.ts';

const path = process.argv[2] as string;
const checksOnly = process.argv[3] === 'checks-only';
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');
const keys = new KeyBook({});
const judge = new TrafficJudge({ env: {}, clockSkewMs: 1_000 });
let peakLiveHeap = 0;
let peakRss = 0;
let exchanges = 0;
const started = performance.now();
let paused = 0;
for await (const raw of readCapture(path, 'ndjson')) {
  const exchange = toJudgedExchange(raw, basename(path), keys);
  if (exchange) {
    if (checksOnly) contractCheck(exchange);
    else judge.add(exchange);
  }
  if (++exchanges % 10_000 === 0) {
    const before = performance.now();
    collect();
    peakLiveHeap = Math.max(peakLiveHeap, process.memoryUsage().heapUsed);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    paused += performance.now() - before;
  }
}
const openWindowsAtEnd = judge.progress.openWindows;
const tallies = judge.finish();
const seconds = (performance.now() - started - paused) / 1000;
const failing = tallies.failing();
process.stdout.write(`${JSON.stringify({ exchanges, seconds, perSecond: exchanges / seconds, peakLiveHeapMb: peakLiveHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20, openWindowsAtEnd, failing })}\n`);

function contractCheck(exchange: JudgedExchange): void {
  const operation = matchOperation(exchange.method, exchange.path.split('?')[0] ?? exchange.path)?.operation;
  if (operation) checkResponse({ operation, status: exchange.status, headers: exchange.responseHeaders, body: exchange.responseBody ?? '', now: exchange.answeredAt });
}
