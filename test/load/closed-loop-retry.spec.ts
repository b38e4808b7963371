/**
 * The built-in client's closed loop ("max" rate, a sender per connection slot) against a target that refuses with a
 * Retry-After: when the wait ends, one request goes (the retry) and the other slots send only once it is admitted,
 * never all at once into a window that may still be refusing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { runLoad } from '../../harness/load/runner.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { scenarioOf, runKeys } from './support/run.ts';

const HOLD_MS = 150;

/** Admits 20 requests, then refuses (Retry-After: 1) for a second; the first request after that is held `HOLD_MS`. */
function refusingOnce(): { server: Server; arrivals: Array<{ at: number; inFlight: number; after: boolean }> } {
  const arrivals: Array<{ at: number; inFlight: number; after: boolean }> = [];
  let inFlight = 0;
  let admitted = 0;
  let refusingUntil = 0;
  let held = false;
  const server = createServer((request, response) => {
    request.resume();
    inFlight++;
    const now = Date.now();
    const after = refusingUntil > 0 && now >= refusingUntil;
    arrivals.push({ at: now, inFlight, after });
    const answer = (status: number, headers: Record<string, string>): void => {
      inFlight--;
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(status === 200 ? '[]' : '{"code":"rate_limited","message":"slow down","status":429}');
    };
    if (admitted < 20 || after) {
      admitted++;
      const first = refusingUntil > 0 && !held;
      held ||= first;
      setTimeout(() => answer(200, {}), first ? HOLD_MS : 0);
      return;
    }
    if (refusingUntil === 0) refusingUntil = now + 1_000;
    answer(429, { 'retry-after': '1' });
  });
  return { server, arrivals };
}

test('after a 429\'s wait, closed-loop slots of one key send one request first, and the rest only once it is admitted', async () => {
  const { server, arrivals } = refusingOnce();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const scenario = scenarioOf([{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'max' } }], 2_500, 1, 4);
    const run = await runLoad({ baseUrl, durationMs: 2_500, concurrency: 4, seed: 1, keys: runKeys(scenario, 1, DEMO_KEYS) });
    // The first request after the wait was held HOLD_MS: none other of the key's reached the target meanwhile.
    const retried = arrivals.findIndex((arrival) => arrival.after);
    expect(retried).toBeGreaterThan(0);
    const meanwhile = arrivals.slice(retried + 1).filter((arrival) => arrival.at < arrivals[retried]!.at + HOLD_MS - 5);
    expect(meanwhile).toEqual([]);
    // It went as the retry, and then the others resumed: the loop went on at its concurrency.
    const observations = run.keys[0]!.observations;
    const retry = observations.find((o) => o.retry !== undefined && o.outcome === 'admitted');
    expect(retry?.doneAt).toBeGreaterThanOrEqual(retry!.sentAt + HOLD_MS - 5);
    expect(Math.max(...arrivals.slice(retried + 1).map((arrival) => arrival.inFlight))).toBeGreaterThan(1);
  } finally {
    server.close();
  }
});
