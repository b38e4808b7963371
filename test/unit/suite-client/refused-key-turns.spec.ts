/**
 * The suite's client under truly concurrent requests on one key (CREATE-5's batch) that a server refuses: ERR-3,
 * no request leaves before the latest Retry-After the client has received has passed, a 429 that came while a
 * request was already waiting included; ERR-4, once the key is refused one request (the retry) goes out on it
 * while the others wait for its answer, so the refused requests never go out again together; and a wait longer than
 * the test has left stops every request of the batch unsent. Over real sockets to a local server that holds the
 * batch until all of it has arrived, on a target clock 20 times faster.
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { targetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import { socketTransport, type Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { KeyRest } from '../../../specs/support/key-rest.ts';
import { KeyLeases } from '../../../specs/support/leases.ts';

const cites = (rule: string) => ({ annotation: { type: 'rule', description: rule } });

const RATE = 20;
const BATCH = 8;
/** How late the batch's later 429s are answered (real ms): after the first refused create has begun its wait. */
const LATER_REFUSALS_MS = 40;
/** Retry-After (target seconds): the first 429 of the batch, its later ones, then the retries refused after them. */
const FIRST_RETRY_AFTER = 2;
const LATER_RETRY_AFTER = 6;
const RETRY_REFUSED_RETRY_AFTER = 1;
const RETRIES_REFUSED = 2;
/** A timer may fire a millisecond before Date.now() reads its end. */
const TIMER_SLACK_MS = 2;

/** What the client's transport saw, in order, with the real time of each (ms since the epoch). */
type Event = { kind: 'sent'; request: number; at: number } | { kind: 'answered'; request: number; at: number; status: number; retryAfterRealMs: number };

const limits = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) };

function refuse(res: http.ServerResponse, retryAfter: number): void {
  res.writeHead(429, { ...limits, 'x-ratelimit-remaining': '0', 'retry-after': String(retryAfter) });
  res.end('{"code":"rate_limited","message":"slow down","status":429}');
}

function admit(res: http.ServerResponse, id: number): void {
  res.writeHead(201, { ...limits, 'x-ratelimit-remaining': '500' });
  res.end(JSON.stringify({ id, name: 'conformance', categoryId: 1, status: 'available' }));
}

/**
 * A server that answers each request by its order of arrival (from 1), answering the batch's only once all of it
 * has arrived, so the batch was truly in flight together.
 */
async function batchServer(answer: (res: http.ServerResponse, order: number) => void): Promise<{ baseUrl: string; arrived(): number; close(): Promise<void> }> {
  let arrived = 0;
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const order = ++arrived;
      if (order > BATCH) return answer(res, order);
      held.push(() => answer(res, order));
      if (held.length === BATCH) for (const release of held) release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}/v1`, arrived: () => arrived, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Admits the batch's first create, refuses the next at once and the rest a little later (a longer Retry-After),
 * refuses the first retries after them, then admits everything.
 */
function refusingServer(): ReturnType<typeof batchServer> {
  return batchServer((res, order) => {
    if (order > BATCH) return order <= BATCH + RETRIES_REFUSED ? refuse(res, RETRY_REFUSED_RETRY_AFTER) : admit(res, order);
    if (order === 1) return admit(res, order);
    if (order === 2) return refuse(res, FIRST_RETRY_AFTER);
    setTimeout(() => refuse(res, LATER_RETRY_AFTER), LATER_REFUSALS_MS);
  });
}

/** The suite's polite client of a Business key over `transport`, its rest kept in a fresh folder, no jitter. */
function politeClient(transport: Transport, baseUrl: string, timeLeftMs: number): PetStoreClient {
  return new PetStoreClient({
    transport,
    baseUrl,
    authorization: 'Bearer demo-business-1',
    plan: 'business',
    judge: new RuleJudge(test.info(), 'ERR-3', new Redactor(DEMO_KEYS)),
    politeness: 'wait',
    timeLeftMs: () => timeLeftMs,
    clock: targetClock(RATE, Date.now()),
    rest: new KeyLeases(mkdtempSync(path.join(tmpdir(), 'petstore-rest-'))).rest('demo-business-1'),
    // No jitter: the waits are the Retry-Afters alone, so a request sent early cannot hide behind a longer jitter.
    random: () => 0,
  });
}

const createBatch = (api: PetStoreClient) => Array.from({ length: BATCH }, () => api.createPet({ name: 'conformance', categoryId: 1 }));

/** The transport, with every send and answer logged in the order the client saw them. */
function logged(transport: Transport, events: Event[]): Transport {
  let requests = 0;
  return {
    async send(request) {
      const number = ++requests;
      events.push({ kind: 'sent', request: number, at: Date.now() });
      const response = await transport.send(request);
      // The server writes Retry-After in delta-seconds of the target's clock.
      events.push({ kind: 'answered', request: number, at: Date.now(), status: response.status, retryAfterRealMs: (Number(response.headers['retry-after'] ?? 0) * 1000) / RATE });
      return response;
    },
  };
}

test('ERR-3 ERR-4 SHOULD truly concurrent creates on a refused key: none leaves before the latest Retry-After received, and one retry at a time goes out until the key answers', cites('ERR-3'), async () => {
  const server = await refusingServer();
  const sockets = socketTransport(server.baseUrl, BATCH);
  const events: Event[] = [];
  try {
    await sockets.open();
    const api = politeClient(logged(sockets, events), server.baseUrl, 60_000);
    const exchanges = await Promise.all(createBatch(api));
    expect(exchanges.map((exchange) => exchange.response.status)).toEqual(Array(BATCH).fill(201));
  } finally {
    sockets.close();
    await server.close();
  }
  const sends = events.flatMap((event, index) => (event.kind === 'sent' ? [{ index, ...event }] : []));
  const refusals = events.flatMap((event, index) => (event.kind === 'answered' && event.status === 429 ? [{ index, ...event }] : []));
  expect(refusals).toHaveLength(BATCH - 1 + RETRIES_REFUSED);

  // ERR-3: every request sent after a 429 reached the client left no sooner than that 429's Retry-After allowed.
  const early = sends.flatMap((send) =>
    refusals
      .filter((refusal) => refusal.index < send.index && send.at < refusal.at + refusal.retryAfterRealMs - TIMER_SLACK_MS)
      .map((refusal) => `request ${send.request} sent ${refusal.at + refusal.retryAfterRealMs - send.at} ms before the Retry-After of request ${refusal.request}'s 429 had passed`),
  );
  expect(early).toEqual([]);

  // ERR-4: from the first 429 received until the key answers again, a request goes out only when none sent since that
  // 429 is in flight (creates of the batch still on their way when it came, on a slow machine, are not the client's doing).
  const firstRefusal = refusals[0]!.index;
  const answeredAgain = events.findIndex((event, index) => index > firstRefusal && event.kind === 'answered' && event.status !== 429);
  const retries = new Set(sends.filter(({ index }) => index > firstRefusal).map(({ request }) => request));
  const inFlightAt = (index: number) => events.slice(firstRefusal, index).reduce((count, event) => (retries.has(event.request) ? count + (event.kind === 'sent' ? 1 : -1) : count), 0);
  const together = sends.filter(({ index }) => index > firstRefusal && index < answeredAgain && inFlightAt(index) > 0).map(({ index, request }) => `request ${request} sent with ${inFlightAt(index)} in flight`);
  expect(together).toEqual([]);
  // The batch's retries went one by one: each of the refused retries, then the one the key answered.
  expect(sends.filter(({ index }) => index > firstRefusal && index <= answeredAgain).length).toBeGreaterThanOrEqual(RETRIES_REFUSED + 1);
});

test('ERR-3 SHOULD a 429 whose wait is longer than the test has left stops the batch: no refused create is sent again, and none is judged', cites('ERR-3'), async () => {
  const server = await batchServer((res) => refuse(res, 60));
  const sockets = socketTransport(server.baseUrl, BATCH);
  try {
    await sockets.open();
    // 60 target seconds are 3 real seconds here; the test has one left.
    const settled = await Promise.allSettled(createBatch(politeClient(sockets, server.baseUrl, 1_000).collecting()));
    expect(settled.map((create) => (create.status === 'rejected' ? String(create.reason) : 'answered'))).toEqual(Array(BATCH).fill(expect.stringMatching(/longer than this test may take/)));
    expect(server.arrived(), 'the batch alone reached the server').toBe(BATCH);
  } finally {
    sockets.close();
    await server.close();
  }
});

test('ERR-4 SHOULD a 429 to a request that crossed another 429 on its way is the same refusal, not one more in a row', cites('ERR-4'), () => {
  const rest = new KeyRest(path.join(mkdtempSync(path.join(tmpdir(), 'petstore-rest-')), 'rest'));
  const inARow: number[] = [];
  const delayOf = (count: number) => (inARow.push(count), 0);
  // Three requests sent together while the key was answered: the first 429 starts a run, the two that crossed it add none.
  for (let crossing = 0; crossing < 3; crossing++) rest.refused(delayOf, 0);
  // The retry, sent once the run had begun: one more in a row.
  rest.refused(delayOf, rest.refusalsInARow());
  expect(inARow).toEqual([1, 1, 1, 2]);
});
