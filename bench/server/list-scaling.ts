/**
 * Does a page of GET /pets cost the same with 1,000,000 pets as with 1,000? Two measurements, each taken
 * alternately for both store sizes within the same run:
 *  1. building a page in-process with the page cache bypassed (PetStore.pageJson), so the figure is the
 *     real cost of finding and writing N pets, with and without a status filter;
 *  2. the same requests over HTTP against two reference servers (1,000 and 1,000,000 seeded pets), each in
 *     a process of its own, loaded by autocannon.
 *
 *   npm run bench:server:list [-- --rounds 3 --seconds 3]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { spawnReferenceServer, type SpawnedServer } from '../../reference-server/spawn.ts';
import { PetStore } from '../../reference-server/store.ts';
import type { PetStatus } from '../../reference-server/pet.ts';
import { loadServer, markdownTable, median } from './autocannon.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(seconds) || seconds < 1) {
  process.stderr.write(`bench: --rounds and --seconds must be whole numbers of at least 1, got "${values.rounds}" and "${values.seconds}"\n`);
  process.exit(2);
}

const SIZES = [1_000, 1_000_000] as const;
const QUERIES: Array<{ label: string; limit: number; status?: PetStatus }> = [
  { label: 'limit=20', limit: 20 },
  { label: 'status=sold&limit=20', limit: 20, status: 'sold' },
  { label: 'status=pending&limit=100', limit: 100, status: 'pending' },
];
const KEY_HEADERS = { authorization: 'Bearer demo-enterprise-1' };
const SAMPLE_MS = 200;

/** Mean microseconds per call of `build`, over as many calls as fit in SAMPLE_MS (at least 5). */
function microsPerCall(build: () => string): number {
  let calls = 0;
  let bytes = 0;
  const started = performance.now();
  while (calls < 5 || performance.now() - started < SAMPLE_MS) {
    bytes += build().length;
    calls++;
  }
  if (bytes === 0) throw new Error('no page was built');
  return ((performance.now() - started) * 1000) / calls;
}

/** What a store without per-status lists would do: look at every pet. Shown for contrast only. */
function scanningPage(store: PetStore, limit: number, status: PetStatus): string {
  const page = store.list(store.size).filter((pet) => pet.status === status).slice(0, limit);
  return JSON.stringify(page);
}

function inProcess(): string[][] {
  const stores = SIZES.map((size) => {
    const store = new PetStore();
    store.seed(size);
    return store;
  });
  const builders = QUERIES.flatMap(({ label, limit, status }) => [
    { label, build: (store: PetStore) => store.pageJson(limit, status) },
    ...(status ? [{ label: `${label}, full scan (contrast)`, build: (store: PetStore) => scanningPage(store, limit, status) }] : []),
  ]);
  const samples = new Map<string, number[]>();
  for (let round = 0; round < rounds + 1; round++) {
    for (const { label, build } of builders) {
      stores.forEach((store, i) => {
        const micros = microsPerCall(() => build(store));
        // The first round warms the JIT and is not counted.
        if (round > 0) samples.set(`${label} ${SIZES[i]}`, [...(samples.get(`${label} ${SIZES[i]}`) ?? []), micros]);
      });
    }
  }
  return builders.map(({ label }) => {
    const [small, large] = SIZES.map((size) => median(samples.get(`${label} ${size}`) ?? []));
    return [label, `${small?.toFixed(2)} µs`, `${large?.toFixed(2)} µs`, ((large ?? NaN) / (small ?? NaN)).toFixed(2)];
  });
}

async function overHttp(): Promise<string[][]> {
  const servers: SpawnedServer[] = [];
  try {
    for (const size of SIZES) {
      servers.push(
        await spawnReferenceServer({
          env: { PETSTORE_SEED_PETS: String(size), PETSTORE_ENTERPRISE_PER_MINUTE: '1000000000', PETSTORE_ENTERPRISE_PER_DAY: '1000000000000' },
        }),
      );
    }
    const rate = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, value: number): void => void map.set(key, [...(map.get(key) ?? []), value]);
    for (const query of QUERIES) {
      const path = `/pets?${query.status ? `status=${query.status}&` : ''}limit=${query.limit}`;
      for (const server of servers) await loadServer(server, { url: `${server.baseUrl}${path}`, headers: KEY_HEADERS, seconds: 1 });
      for (let round = 0; round < rounds; round++) {
        // Alternate which size goes first, so that neither always meets the machine in the same state.
        const order = SIZES.map((size, i) => ({ size, server: servers[i] as SpawnedServer }));
        if (round % 2) order.reverse();
        for (const { size, server } of order) {
          const result = await loadServer(server, { url: `${server.baseUrl}${path}`, headers: KEY_HEADERS, seconds });
          add(rate, `${query.label} ${size}`, result.requestsPerSecond);
          add(cpu, `${query.label} ${size}`, result.cpuMicrosPerRequest);
          process.stderr.write(`${query.label}, ${size} pets: ${Math.round(result.requestsPerSecond)} req/s, ${result.cpuMicrosPerRequest.toFixed(1)} µs CPU per request\n`);
        }
      }
    }
    return QUERIES.map((query) => {
      const [smallRate, largeRate] = SIZES.map((size) => median(rate.get(`${query.label} ${size}`) ?? []));
      const [smallCpu, largeCpu] = SIZES.map((size) => median(cpu.get(`${query.label} ${size}`) ?? []));
      return [
        query.label,
        String(Math.round(smallRate ?? NaN)),
        String(Math.round(largeRate ?? NaN)),
        ((largeRate ?? NaN) / (smallRate ?? NaN)).toFixed(2),
        `${smallCpu?.toFixed(1)} / ${largeCpu?.toFixed(1)}`,
      ];
    });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

process.stderr.write('building pages in-process…\n');
const built = markdownTable(['query', '1,000 pets', '1,000,000 pets', 'ratio'], inProcess());
process.stderr.write('loading servers over HTTP…\n');
const served = markdownTable(['query', 'req/s, 1,000 pets', 'req/s, 1,000,000 pets', 'ratio', 'server CPU µs/req, 1,000 / 1,000,000'], await overHttp());
const text = `Page cost by store size (median of ${rounds} alternating rounds; node ${process.version})

Building a page in-process, page cache bypassed (${SAMPLE_MS} ms of calls per sample); the full-scan rows
show what a status page would cost without per-status lists:

${built}

Over HTTP (autocannon, ${seconds} s per sample, Enterprise key):

${served}
`;
process.stdout.write(`\n${text}`);
const out = fileURLToPath(new URL('../../reports/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}server-list-scaling.md`, text);
