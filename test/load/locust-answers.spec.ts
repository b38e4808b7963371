/**
 * What the Locust engine takes for an answer, held to the built-in client's: a redirect is an answer, never
 * followed (the key stays with the target, whatever origin the Location names), and a repeated X-RateLimit header
 * is read as one value joined with ", " (unreadable), not dropped with the answer it came in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { LoadSummary } from '../../harness/load/summary.ts';
import { needLocust } from './support/locust.ts';
import { keyOf, runAgainst, runEngineAgainst, type KeyPlan } from './support/run.ts';
import { statuses } from './support/verdict-parity.ts';

const SCALE = 60;
const KEYS: KeyPlan[] = [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: { kind: 'perSecond', perSecond: 20 } }];
const LABEL = 'free #1 compliant';
test.describe.configure({ mode: 'serial' });
needLocust();

interface Listening {
  server: Server;
  origin: string;
  requests: number;
  authorizations: string[];
}

async function listen(answer: (url: string) => { status: number; headers: Record<string, string | string[]> }): Promise<Listening> {
  const listening: Listening = { server: createServer(), origin: '', requests: 0, authorizations: [] };
  listening.server.on('request', (request, response) => {
    listening.requests += 1;
    if (request.headers.authorization) listening.authorizations.push(request.headers.authorization);
    request.resume();
    const { status, headers } = answer(request.url ?? '/');
    response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end('{}');
  });
  await new Promise<void>((resolve) => listening.server.listen(0, '127.0.0.1', resolve));
  listening.origin = `http://127.0.0.1:${(listening.server.address() as AddressInfo).port}`;
  return listening;
}

const rateLimitHeaders = (): Record<string, string> => ({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60) });

async function bothEngines(baseUrl: string): Promise<{ builtin: LoadSummary; engine: LoadSummary }> {
  return { builtin: await runAgainst(baseUrl, KEYS, 2_000, SCALE), engine: await runEngineAgainst(baseUrl, KEYS, 2_000, SCALE) };
}

test('neither engine follows a redirect to another origin: it is counted as an answer and the key never reaches the other origin', async () => {
  const elsewhere = await listen(() => ({ status: 200, headers: rateLimitHeaders() }));
  const target = await listen((url) => ({ status: 302, headers: { Location: `${elsewhere.origin}${url}`, ...rateLimitHeaders() } }));
  try {
    const { builtin, engine } = await bothEngines(`${target.origin}/v1`);
    for (const summary of [builtin, engine]) {
      const key = keyOf(summary, LABEL);
      expect(key.sent).toBeGreaterThan(0);
      expect(key.statusCounts).toEqual({ '302': key.sent });
    }
    expect(elsewhere.requests).toBe(0);
    expect(target.authorizations.length).toBeGreaterThan(0);
  } finally {
    target.server.close();
    elsewhere.server.close();
  }
});

test('a repeated X-RateLimit header is one unreadable value on both engines, and its answers are still counted', async () => {
  const target = await listen(() => ({ status: 200, headers: { ...rateLimitHeaders(), 'X-RateLimit-Limit': ['60', '60'] } }));
  try {
    const { builtin, engine } = await bothEngines(`${target.origin}/v1`);
    expect(keyOf(engine, LABEL).sent).toBe(target.requests - keyOf(builtin, LABEL).sent);
    expect(keyOf(engine, LABEL).statusCounts).toEqual({ '200': keyOf(engine, LABEL).sent });
    expect(statuses(engine)).toEqual(statuses(builtin));
    expect(statuses(engine)[LABEL]?.['rate-limit-headers-present']).toBe('fail');
  } finally {
    target.server.close();
  }
});
