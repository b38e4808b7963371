/**
 * Stateful replay end to end: the target hands out other ids than the recording has (a store seeded with
 * more pets; a store whose ids start at 2^60), and every later request must use the target's id, exactly.
 * Lists are left out of the comparison here: the stores hold other pets, which is not what is tested.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sleep } from '../../lib/backoff.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { startFaultProxy, type ExchangeTransform } from '../support/fault-proxy.ts';
import { DEMO_KEY_ENV, cleanEnv, explain, harEntries, readSummary, runCommand, SAMPLE_HAR, tempDir } from './support.ts';

const createdInSample = harEntries(SAMPLE_HAR)
  .filter((e) => e.request.method === 'POST' && e.response.status === 201)
  .map((e) => BigInt(/"id":(\d+)/.exec(e.response.content.text ?? '')?.[1] ?? '0'));

function ignoreLists(dir: string): string {
  const file = join(dir, 'ignore-lists.yaml');
  writeFileSync(file, 'operations:\n  listPets:\n    body: [""]\n');
  return file;
}

async function replayThrough(transform: ExchangeTransform, serverEnv: Record<string, string>, args: string[]) {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '60', ...serverEnv } });
  const seen: string[] = [];
  const proxy = await startFaultProxy(server.baseUrl, {
    request: async (request) => {
      seen.push(`${request.method} ${request.path}`);
      return transform.request ? transform.request(request) : request;
    },
    ...(transform.response ? { response: transform.response } : {}),
  });
  try {
    const dir = tempDir('id-remap');
    const reports = join(dir, 'reports');
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--ignore', ignoreLists(dir), '--output', reports, ...args], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: proxy.baseUrl }));
    return { result, reports, seen };
  } finally {
    await proxy.close();
    await server.stop();
  }
}

test('a pet created as N in the recording and as M on the target is fetched as /pets/M', async () => {
  // Six demo pets when recorded, twenty here: the target numbers the new pets from 21.
  const { result, reports, seen } = await replayThrough({}, { PETSTORE_SEED_PETS: '20' }, []);
  expect(result.code, explain(result)).toBe(0);
  expect(readSummary(reports)).toMatchObject({ violations: { exchanges: 0 }, differences: { exchanges: 0 } });
  const offset = 20n - 6n;
  for (const id of createdInSample) expect(seen).toContain(`GET /v1/pets/${id + offset}`);
  expect(seen).not.toContain(`GET /v1/pets/${createdInSample[0]}`);
  expect(readFileSync(join(reports, 'index.html'), 'utf8')).toContain(`(sent as GET /pets/${(createdInSample[0] ?? 0n) + offset}: ids remapped)`);
});

const BIG = 2n ** 60n;

/** A legitimate variant: the same store, but every id it shows is 2^60 higher (far above 2^53). */
const idsFrom2To60: ExchangeTransform = {
  request: (request) => {
    const id = /^\/v1\/pets\/(\d+)$/.exec(request.path)?.[1];
    if (id === undefined || BigInt(id) < BIG || BigInt(id) >= BIG + 2n ** 32n) return request;
    return { ...request, path: `/v1/pets/${BigInt(id) - BIG}` };
  },
  response: (response) => ({
    ...response,
    headers: { ...response.headers, ...(response.headers.location ? { location: response.headers.location.replace(/\d+$/, (id) => String(BigInt(id) + BIG)) } : {}) },
    body: response.body.replace(/"id":(\d+)/g, (_match, id: string) => `"id":${BigInt(id) + BIG}`),
  }),
};

test('ids above 2^53 assigned by the target survive exactly, in paths and comparisons', async () => {
  const { result, reports, seen } = await replayThrough(idsFrom2To60, {}, []);
  expect(result.code, explain(result)).toBe(0);
  expect(readSummary(reports)).toMatchObject({ violations: { exchanges: 0 }, differences: { exchanges: 0 } });
  // 2^60 + 7 is not a double: a rounded id would have fetched 2^60 + 8 or 2^60.
  for (const id of createdInSample) expect(seen).toContain(`GET /v1/pets/${id + BIG}`);
});

test('with concurrency, a fetch waits for the slow creation of its pet instead of asking for the recorded id', async () => {
  const slowCreations: ExchangeTransform = {
    request: async (request) => {
      if (request.method === 'POST') await sleep(150);
      return request;
    },
  };
  const { result, reports, seen } = await replayThrough(slowCreations, { PETSTORE_SEED_PETS: '20' }, ['--concurrency', '32']);
  expect(result.code, explain(result)).toBe(0);
  expect(readSummary(reports)).toMatchObject({ violations: { exchanges: 0 }, differences: { exchanges: 0 } });
  for (const id of createdInSample) expect(seen).not.toContain(`GET /v1/pets/${id}`);
});
