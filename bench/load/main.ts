/**
 * The load script as a load generator, measured in one run on this machine:
 *
 * 1. Throughput: requests per second sent by petstore-load at rate "max" (a closed loop over its raw
 *    keep-alive client) and by autocannon, against the same bundled reference server in a process of its
 *    own (logging off, an Enterprise key with the quota lifted), each generator in a process of its own,
 *    over several rounds, every generator in every round. The shared client of lib/http, undici's Pool.dispatch
 *    and Pool.request, node:http (keep-alive Agent) and the built-in fetch run the same closed loop: they are
 *    why lib/http keeps a client of its own.
 * 2. Rate accuracy: petstore-load at fixed rates the server can serve, against the intended count.
 *
 *   npm run bench:load [-- --rounds 5 --seconds 5 --connections 32]
 *
 * Writes reports/bench/load.json and prints a Markdown table.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { markdownTable, median, runLoad as runAutocannon } from '../server/autocannon.ts';
import type { ChildResult } from './child.ts';
import { wholeFlag } from '../whole-flag.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    rates: { type: 'string', default: '1000,5000,10000' },
  },
});
const rounds = wholeFlag(values.rounds, 'rounds');
const seconds = wholeFlag(values.seconds, 'seconds');
const connections = wholeFlag(values.connections, 'connections');
const rates = (values.rates ?? '').split(',').map((rate) => wholeFlag(rate, 'rates'));


const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'demo-enterprise-1';
const GENERATORS = ['autocannon', 'petstore-load', 'lib-http', 'undici-dispatch', 'undici-request', 'node-http', 'fetch'];
const SERVER_ENV = { PETSTORE_LOG: 'off', PETSTORE_ENTERPRISE_PER_MINUTE: '1000000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000000000' };

function child(client: string, url: string, runSeconds: number, rate?: number): Promise<ChildResult> {
  const args = ['--import', 'tsx', CHILD, client, url, KEY, String(connections), String(runSeconds), ...(rate === undefined ? [] : [String(rate)])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${client} failed: ${stderr.trim() || error.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildResult);
    });
  });
}

async function autocannon(url: string, runSeconds: number): Promise<ChildResult> {
  const result = await runAutocannon({ url: `${url}/pets?limit=20`, headers: { authorization: `Bearer ${KEY}` }, connections, seconds: runSeconds });
  return { requests: result.requests, seconds: runSeconds, perSecond: result.requestsPerSecond, non2xx: result.non2xx, errors: result.errors };
}

function clean(name: string, result: ChildResult): ChildResult {
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors; the figures would not be comparable`);
  return result;
}

const server = await spawnReferenceServer({ env: SERVER_ENV });
try {
  const url = server.baseUrl;
  process.stderr.write(`bench: server ${url}; warming up\n`);
  await autocannon(url, 2);
  await child('petstore-load', url, 2);

  const throughput: Record<string, number[]> = Object.fromEntries(GENERATORS.map((name) => [name, []]));
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Every generator in every round, the order reversed every other round: the machine's load drifts.
    const order = round % 2 ? GENERATORS : [...GENERATORS].reverse();
    const figures: Record<string, number> = {};
    for (const name of order) {
      const result = clean(name, name === 'autocannon' ? await autocannon(url, seconds) : await child(name, url, seconds));
      figures[name] = result.perSecond;
      throughput[name]?.push(result.perSecond);
    }
    ratios.push((figures['petstore-load'] ?? 0) / (figures.autocannon ?? 1));
    process.stderr.write(`bench: round ${round}: ${GENERATORS.map((name) => `${name} ${Math.round(figures[name] ?? 0)}`).join(', ')} req/s\n`);
  }

  const accuracy = [];
  for (const rate of rates) {
    const result = clean(`rate ${rate}`, await child('petstore-load', url, 10, rate));
    const buckets = result.perSecondSent ?? [];
    const worstSecond = Math.max(...buckets.map((count) => Math.abs(count - rate) / rate));
    accuracy.push({ rate, sent: result.requests, achieved: result.perSecond, error: (result.perSecond - rate) / rate, worstSecond, p99Ms: result.p99Ms ?? 0 });
    process.stderr.write(`bench: rate ${rate}: ${result.perSecond.toFixed(1)} req/s\n`);
  }

  const medians = Object.fromEntries(Object.entries(throughput).map(([name, figures]) => [name, median(figures)]));
  const report = {
    generatedAt: new Date().toISOString(),
    machine: 'shared, 2 cores; server and each generator in processes of their own',
    settings: { rounds, seconds, connections, request: 'GET /v1/pets?limit=20 with an Enterprise key, quota lifted, logging off' },
    throughput: { perRound: throughput, medians, ratioPerRound: ratios, medianRatio: median(ratios) },
    accuracy,
  };
  mkdirSync(`${ROOT}/reports/bench`, { recursive: true });
  writeFileSync(`${ROOT}/reports/bench/load.json`, `${JSON.stringify(report, null, 2)}\n`);

  const round = (value: number): string => Math.round(value).toLocaleString('en-US');
  process.stdout.write(`Throughput, ${connections} connections, ${rounds} rounds of ${seconds} s (median req/s; petstore-load / autocannon per round: ${ratios.map((r) => r.toFixed(2)).join(', ')})\n\n`);
  process.stdout.write(
    `${markdownTable(
      ['generator', 'median req/s', 'per round'],
      Object.entries(throughput).map(([name, figures]) => [name, round(medians[name] ?? 0), figures.map(round).join(', ')]),
    )}\n\n`,
  );
  process.stdout.write(`Rate accuracy, 10 s per rate, open model\n\n`);
  process.stdout.write(
    `${markdownTable(
      ['requested req/s', 'sent', 'achieved req/s', 'error', 'worst 1-s bucket', 'p99 latency'],
      accuracy.map((a) => [round(a.rate), round(a.sent), a.achieved.toFixed(1), `${(a.error * 100).toFixed(2)}%`, `${(a.worstSecond * 100).toFixed(1)}%`, `${a.p99Ms} ms`]),
    )}\n`,
  );
} finally {
  await server.stop();
}
