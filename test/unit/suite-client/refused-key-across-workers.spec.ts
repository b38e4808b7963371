/**
 * The suite's client in two workers (two processes, each its own client and KeyRest on the key's one lease folder)
 * sharing a key that a server refuses: ERR-3, no request leaves before the latest Retry-After the server gave on the
 * key; ERR-4, once the rest is over one request in the whole run goes out as the key's retry, and none other until
 * it is answered, in either worker. The retry's slot is taken back from a worker gone or past its deadline, and a
 * request held for it waits no longer than its test has left.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { KeyRest } from '../../../specs/support/key-rest.ts';

const cites = (rule: string) => ({ annotation: { type: 'rule', description: rule } });

const WORKERS = 2;
const CREATES_PER_WORKER = 2;
const FIRST_BATCH = WORKERS * CREATES_PER_WORKER;
/** Retry-After, in seconds of the wall clock (the children's clients read it so). */
const RETRY_AFTER = 1;
/** How long the server holds each retry's answer: long enough for another worker's retry to arrive beside it. */
const RETRY_HELD_MS = 300;
/** A timer may fire a millisecond before Date.now() reads its end. */
const TIMER_SLACK_MS = 2;
const WORKER = path.join(import.meta.dirname, 'refused-key-worker.ts');

/** What the server saw, in order, with the real time of each (ms since the epoch). */
type Event = { kind: 'arrived'; request: number; at: number } | { kind: 'answered'; request: number; at: number; status: number };

const limits = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) };

/**
 * Holds the first batch until every worker's creates have arrived and refuses them all together; refuses the first
 * retry after it, admits the second, then everything, each retry's answer held a little.
 */
async function refusingServer(events: Event[]): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let arrived = 0;
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const request = ++arrived;
      events.push({ kind: 'arrived', request, at: Date.now() });
      const answer = (status: number): void => {
        events.push({ kind: 'answered', request, at: Date.now(), status });
        if (status === 429) res.writeHead(429, { ...limits, 'x-ratelimit-remaining': '0', 'retry-after': String(RETRY_AFTER) }).end('{"code":"rate_limited","message":"slow down","status":429}');
        else res.writeHead(201, { ...limits, 'x-ratelimit-remaining': '500' }).end(JSON.stringify({ id: request, name: 'conformance', categoryId: 1, status: 'available' }));
      };
      if (request > FIRST_BATCH + 2) return answer(201);
      if (request > FIRST_BATCH) return void setTimeout(() => answer(request === FIRST_BATCH + 1 ? 429 : 201), RETRY_HELD_MS);
      held.push(() => answer(429));
      if (held.length === FIRST_BATCH) for (const release of held) release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A worker process's creates, answered: their statuses, or its error output. */
function worker(baseUrl: string, leases: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { ...process.env, TARGET: baseUrl, PETSTORE_LEASES: leases, PETSTORE_CREATES: String(CREATES_PER_WORKER) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

test('ERR-3 ERR-4 SHOULD two workers sharing a refused key: none sends before the latest Retry-After, and one retry in the whole run is in flight until it is answered', cites('ERR-4'), async () => {
  const events: Event[] = [];
  const server = await refusingServer(events);
  const leases = mkdtempSync(path.join(tmpdir(), 'petstore-rest-'));
  try {
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => worker(server.baseUrl, leases)));
    for (const { code, out, err } of workers) expect({ code, out, err }).toEqual({ code: 0, out: JSON.stringify(Array(CREATES_PER_WORKER).fill(201)), err: '' });
  } finally {
    await server.close();
  }
  const refusals = events.filter((event) => event.kind === 'answered' && event.status === 429);
  expect(refusals).toHaveLength(FIRST_BATCH + 1);

  // ERR-3: every request arrived no sooner than each 429 answered before it allowed.
  const early = events.flatMap((arrival, index) =>
    arrival.kind !== 'arrived'
      ? []
      : events
          .slice(0, index)
          .filter((refusal) => refusal.kind === 'answered' && refusal.status === 429 && arrival.at < refusal.at + RETRY_AFTER * 1000 - TIMER_SLACK_MS)
          .map((refusal) => `request ${arrival.request} arrived ${refusal.at + RETRY_AFTER * 1000 - arrival.at} ms before request ${refusal.request}'s Retry-After had passed`),
  );
  expect(early).toEqual([]);

  // ERR-4: after the first batch's refusal, until a retry is admitted, a request arrives only when none is in flight.
  const admitted = events.findIndex((event) => event.kind === 'answered' && event.status === 201);
  const retries = events.slice(0, admitted).filter((event) => event.kind === 'arrived' && event.request > FIRST_BATCH);
  const inFlightAt = (request: number) => events.slice(0, events.findIndex((event) => event.kind === 'arrived' && event.request === request)).reduce((count, event) => count + (event.kind === 'arrived' ? 1 : -1), 0);
  expect(retries.map(({ request }) => `request ${request} arrived with ${inFlightAt(request)} in flight`)).toEqual(retries.map(({ request }) => `request ${request} arrived with 0 in flight`));
  expect(retries.length, 'the refused retry, then the admitted one').toBe(2);
});

test('ERR-4 SHOULD a retry slot is held while its worker lives and its deadline is ahead, and taken back once either is over', cites('ERR-4'), async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'petstore-rest-')), 'rest');
  const rest = new KeyRest(file);
  const release = rest.claimRetry(Date.now() + 60_000)!;
  expect(release, 'a free slot is claimed').toBeDefined();
  expect(rest.claimRetry(Date.now() + 60_000), 'a live retry holds it, this worker\'s own too').toBeUndefined();
  release();
  const ended = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => ended.on('close', resolve));
  writeFileSync(`${file}.retry`, `${ended.pid} ${Date.now() + 60_000} 1`);
  expect(rest.claimRetry(Date.now() + 60_000), "a dead worker's retry is taken back").toBeDefined();
  writeFileSync(`${file}.retry`, `${process.pid} ${Date.now() - 1} 1`);
  expect(rest.claimRetry(Number.POSITIVE_INFINITY), 'a retry past its deadline is taken back').toBeDefined();
  writeFileSync(`${file}.retry`, '');
  expect(rest.claimRetry(Date.now() + 60_000), 'a slot still being written is held').toBeUndefined();
  const longAgo = new Date(Date.now() - 60_000);
  utimesSync(`${file}.retry`, longAgo, longAgo);
  expect(rest.claimRetry(Date.now() + 60_000), 'a slot left unwritten by a worker that died making it is taken back').toBeDefined();
});

test("ERR-4 SHOULD a request held for another worker's retry waits no longer than its test has left: it is not sent, and could not complete", cites('ERR-4'), async () => {
  const rest = new KeyRest(path.join(mkdtempSync(path.join(tmpdir(), 'petstore-rest-')), 'rest'));
  rest.refused(() => 0, 0);
  // Another worker's retry, out and unanswered.
  expect(rest.claimRetry(Date.now() + 60_000)).toBeDefined();
  let sent = 0;
  const ends = Date.now() + 300;
  const api = new PetStoreClient({
    transport: { send: async () => (sent++, { status: 200, headers: {}, body: '[]' }) },
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-business-1',
    plan: 'business',
    judge: new RuleJudge(test.info(), 'ERR-4', new Redactor(DEMO_KEYS)),
    politeness: 'wait',
    timeLeftMs: () => ends - Date.now(),
    rest,
  }).collecting();
  await expect(api.listPets()).rejects.toThrow('GET /pets was not sent: the retry on its key was not answered in the time this test had left');
  expect(sent).toBe(0);
});
