/**
 * Throughput of GET /v1/pets (20 pets; auth, limiter, rate-limit headers on; an Enterprise key) against a
 * bare node:http server that answers the very same bytes with no logic, both in processes of their own and
 * loaded by autocannon in the same run, alternating, over several rounds. The figure that matters is the
 * ratio to the bare server within each round with the JSON log on, as `npm run serve` has it, written to a
 * file (target: at least 0.9), as the machine is shared and noisy.
 * With two cores the load generator can be what limits both, so the server's own CPU time per request
 * (from /proc) is reported beside it: the ratio of those is the cost of the server's logic, load or not.
 *
 *   npm run bench:server:throughput [-- --rounds 5 --seconds 5 --connections 32]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnReferenceServer, spawnServerScript, type SpawnedServer } from '../../reference-server/spawn.ts';
import { loadServer, markdownTable, median, type ServerLoadResult } from './autocannon.ts';
import { wholeFlag } from '../whole-flag.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '32' } },
});
const rounds = wholeFlag(values.rounds, 'rounds');
const seconds = wholeFlag(values.seconds, 'seconds');
const connections = wholeFlag(values.connections, 'connections');


const KEY = 'demo-enterprise-1';
/** The logging server writes its lines to a file, as `npm run serve > server.log` does: no reader shares the cores. */
const LOG_FILE = path.join(tmpdir(), `petstore-bench-server-${process.pid}.log`);
const HEADERS = { authorization: `Bearer ${KEY}` };
// The quota is lifted so that no run is refused: the benchmark measures the work of counting, not 429s.
const SERVER_ENV = { PETSTORE_SEED_PETS: '1000', PETSTORE_ENTERPRISE_PER_MINUTE: '1000000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000000000' };

interface Contender {
  name: string;
  server: SpawnedServer;
}

function measure(server: SpawnedServer, seconds: number): Promise<ServerLoadResult> {
  return loadServer(server, { url: `${server.baseUrl}/pets`, headers: HEADERS, connections, seconds });
}

async function main(): Promise<void> {
  const contenders: Contender[] = [];
  try {
    const logOff = await spawnReferenceServer({ env: { ...SERVER_ENV, PETSTORE_LOG: 'off' } });
    contenders.push({ name: 'reference, log off', server: logOff });
    contenders.push({ name: 'reference, log json', server: await spawnReferenceServer({ env: { ...SERVER_ENV, PETSTORE_LOG: 'json' }, stdoutFile: LOG_FILE }) });
    contenders.unshift({ name: 'bare node:http', server: await bareServerLike(logOff.baseUrl) });

    process.stderr.write(`warming up ${contenders.length} servers…\n`);
    for (const { server } of contenders) await measure(server, 2);

    const results = new Map<string, ServerLoadResult[]>(contenders.map(({ name }) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      // Rotate the order each round so that none always runs first or last.
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length] as Contender);
      for (const { name, server } of order) {
        process.stderr.write(`round ${round + 1}/${rounds}: ${name}… `);
        const result = await measure(server, seconds);
        results.get(name)?.push(result);
        process.stderr.write(`${Math.round(result.requestsPerSecond)} req/s, ${result.cpuMicrosPerRequest.toFixed(1)} µs CPU per request\n`);
      }
    }
    report(results);
  } finally {
    await Promise.all(contenders.map(({ server }) => server.stop()));
    rmSync(LOG_FILE, { force: true });
  }
}

/** The bare peer answers exactly what the reference server answers to the benchmark's request. */
async function bareServerLike(baseUrl: string): Promise<SpawnedServer> {
  const response = await fetch(`${baseUrl}/pets`, { headers: HEADERS });
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    headers[name] = response.headers.get(name) ?? '';
  }
  const canned = { status: response.status, headers, body: await response.text() };
  if (canned.status !== 200 || (JSON.parse(canned.body) as unknown[]).length !== 20) throw new Error(`expected 20 pets from ${baseUrl}/pets, got ${canned.status}`);
  return spawnServerScript(fileURLToPath(new URL('./bare-server.ts', import.meta.url)), { BARE_RESPONSE: JSON.stringify(canned) }, 'the bare server');
}

function report(results: Map<string, ServerLoadResult[]>): void {
  const bare = results.get('bare node:http') ?? [];
  const rows = [...results].map(([name, runs]) => {
    const ratios = runs.map((run, round) => run.requestsPerSecond / (bare[round]?.requestsPerSecond ?? NaN));
    const cpuRatios = runs.map((run, round) => (bare[round]?.cpuMicrosPerRequest ?? NaN) / run.cpuMicrosPerRequest);
    return [
      name,
      String(Math.round(median(runs.map((run) => run.requestsPerSecond)))),
      runs.map((run) => Math.round(run.requestsPerSecond)).join(' / '),
      `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      median(runs.map((run) => run.cpuMicrosPerRequest)).toFixed(1),
      `${median(cpuRatios).toFixed(2)} (${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)})`,
      String(median(runs.map((run) => run.latencyP99Ms))),
    ];
  });
  const table = markdownTable(
    ['server', 'median req/s', 'req/s per round', 'req/s ratio to bare, median (range)', 'server CPU µs/req', 'CPU efficiency vs bare, median (range)', 'p99 ms'],
    rows,
  );
  const settings = `${rounds} rounds × ${seconds} s per server, ${connections} connections, GET /v1/pets (20 pets, Enterprise key), node ${process.version}`;
  process.stdout.write(`\nThroughput: ${settings}\n\n${table}\n`);
  const out = fileURLToPath(new URL('../../reports/bench/', import.meta.url));
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}server-throughput.md`, `Throughput: ${settings}\n\n${table}\n`);
  writeFileSync(`${out}server-throughput.json`, JSON.stringify({ settings: { rounds, seconds, connections, node: process.version }, results: Object.fromEntries(results) }, null, 2));
}

await main();
