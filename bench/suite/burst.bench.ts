/**
 * The suite's measuring burst, measured: how long a Business minute window's 1,000 requests take when sent
 * the way the rate-limit tests send them (sendAtOnce, 24 in flight, every response checked against the
 * contract and judged), over each transport, against the bundled server in a process of its own. The goal is
 * 100 ms, so a window shortened to a tenth of a second still holds the whole burst. Peers in the same run:
 * the same burst over Node's fetch and Playwright's request context (checked alike), and the shared client
 * with nothing checked (the ceiling).
 *
 *   npm run bench:suite                (PETSTORE_BENCH_ROUNDS=3 for fewer rounds; default 5)
 *
 * Writes reports/bench/suite-burst.md and prints the same table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, type APIRequestContext } from '@playwright/test';
import { HttpClient } from '../../lib/http/client.ts';
import { plans } from '../../lib/plans.ts';
import { Redactor } from '../../lib/redact.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { PetStoreClient } from '../../specs/support/client.ts';
import { playwrightTransport, socketTransport, type Transport } from '../../specs/support/exchange.ts';
import { RuleJudge } from '../../specs/support/judge.ts';
import { BURST_CONCURRENCY, sendAtOnce } from '../../specs/support/minute-window.ts';
import { markdownTable, median } from '../server/autocannon.ts';

const ROUNDS = Number(process.env.PETSTORE_BENCH_ROUNDS ?? '5');
const BURST = plans.business.referenceDefault.perMinute;
const REPORT = fileURLToPath(new URL('../../reports/bench/suite-burst.md', import.meta.url));

/** The transport the suite's bursts used before the shared client; a peer only. */
function fetchTransport(): Transport {
  return {
    async send(request) {
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: response.status, headers, body: await response.text() };
    },
  };
}

interface Contender {
  name: string;
  /** Milliseconds for one burst with `key`. */
  burst(key: string): Promise<number>;
}

function checked(name: string, baseUrl: string, makeTransport: () => Transport & { close?(): void }, redactor: Redactor): Contender {
  return {
    name,
    async burst(key) {
      const transport = makeTransport();
      const client = new PetStoreClient({
        transport,
        baseUrl,
        authorization: `Bearer ${key}`,
        plan: 'business',
        judge: new RuleJudge(test.info(), 'RL-4', redactor),
        politeness: 'measure',
        timeLeftMs: () => Number.POSITIVE_INFINITY,
      });
      try {
        const started = performance.now();
        const answers = await sendAtOnce(client, BURST, BURST_CONCURRENCY);
        const ms = performance.now() - started;
        const refused = answers.filter((exchange) => exchange.response.status !== 200).length;
        if (refused > 0) throw new Error(`${name}: ${refused} of ${BURST} answers were not 200; the figures would not be comparable`);
        return ms;
      } finally {
        transport.close?.();
      }
    },
  };
}

function unchecked(baseUrl: string): Contender {
  return {
    name: 'shared client, nothing checked (the ceiling)',
    async burst(key) {
      const client = new HttpClient(new URL(baseUrl), { maxConnections: BURST_CONCURRENCY, timeoutMs: 15_000 });
      const url = new URL(`${baseUrl}/pets?limit=1`);
      const headers = { Authorization: `Bearer ${key}` };
      let next = 0;
      try {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: BURST_CONCURRENCY }, async () => {
            while (next++ < BURST) await client.request({ method: 'GET', url, headers });
          }),
        );
        return performance.now() - started;
      } finally {
        client.close();
      }
    },
  };
}

test('a Business window of requests, each checked, over each transport', async ({ playwright }) => {
  const contenders = 4;
  const keys = Array.from({ length: (ROUNDS + 1) * contenders }, (_, index) => `bench-business-${index}`);
  const server = await spawnReferenceServer({ env: { PETSTORE_API_KEY_BUSINESS: keys.join(',') } });
  const context: APIRequestContext = await playwright.request.newContext();
  const redactor = new Redactor({ free: [], pro: [], business: keys, enterprise: [] });
  try {
    const field: Contender[] = [
      checked('shared client (what the suite uses)', server.baseUrl, () => socketTransport(server.baseUrl, BURST_CONCURRENCY), redactor),
      unchecked(server.baseUrl),
      checked("Node's fetch", server.baseUrl, fetchTransport, redactor),
      checked("Playwright's request context", server.baseUrl, () => playwrightTransport(context), redactor),
    ];
    const times = new Map<string, number[]>(field.map((contender) => [contender.name, []]));
    let nextKey = 0;
    for (const contender of field) await contender.burst(keys[nextKey++]!);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? field : [...field].reverse();
      for (const contender of order) times.get(contender.name)!.push(await contender.burst(keys[nextKey++]!));
    }
    const rows = field.map((contender) => {
      const ms = times.get(contender.name)!;
      const typical = median(ms);
      return [contender.name, `${typical.toFixed(0)} ms`, Math.round((BURST / typical) * 1000).toLocaleString('en-US'), ms.map((value) => value.toFixed(0)).join(', ')];
    });
    const table = markdownTable(['transport', `median ms per ${BURST}`, 'req/s', 'per round (ms)'], rows);
    const text = `The suite's measuring burst: ${BURST} requests (a Business minute window), ${BURST_CONCURRENCY} in flight, ${ROUNDS} alternating rounds, the bundled server (log off) in a process of its own\n\n${table}\n`;
    mkdirSync(fileURLToPath(new URL('.', `file://${REPORT}`)), { recursive: true });
    writeFileSync(REPORT, text);
    process.stdout.write(`\n${text}`);
  } finally {
    await context.dispose();
    await server.stop();
  }
});
