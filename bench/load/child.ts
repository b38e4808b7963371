/**
 * One load generator run in a process of its own, so that it never shares an event loop with the server,
 * the benchmark script or another generator. Prints one JSON line.
 *
 *   tsx bench/load/child.ts <client> <url> <key> <connections> <seconds> [rate]
 *
 * client: petstore-load (the load script's runner: rate "max" is a closed loop at the connection cap, a number
 * is the open model at that rate), or a closed loop over a client: lib-http (the shared client in lib/http,
 * which the load script, replay and the suite's bursts use), node-http (a keep-alive Agent),
 * fetch (Node's built-in fetch), undici-request (undici's Pool.request) and undici-dispatch (Pool.dispatch,
 * undici's lowest level, no body stream): what the shared client in lib/http is compared with.
 */
import http from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { runLoad } from '../../harness/load/runner.ts';
import { HttpClient } from '../../lib/http/client.ts';

export interface ChildResult {
  requests: number;
  seconds: number;
  perSecond: number;
  non2xx: number;
  errors: number;
  /** petstore-load at a fixed rate: requests sent in each whole second of the run. */
  perSecondSent?: number[];
  p99Ms?: number;
}

const [client, url, key, connectionsText, secondsText, rateText] = process.argv.slice(2);
const connections = Number(connectionsText);
const durationMs = Number(secondsText) * 1000;
const target = `${url}/pets?limit=20`;

async function closedLoop(send: () => Promise<number>): Promise<ChildResult> {
  let requests = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        try {
          const status = await send();
          requests++;
          if (status < 200 || status > 299) non2xx++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { requests, seconds, perSecond: requests / seconds, non2xx, errors };
}

async function petstoreLoad(): Promise<ChildResult> {
  const perSecond = rateText === undefined || rateText === 'max' ? undefined : Number(rateText);
  const run = await runLoad({
    baseUrl: url as string,
    durationMs,
    concurrency: connections,
    record: perSecond !== undefined,
    seed: 1,
    keys: [
      {
        spec: { label: 'enterprise #1', plan: 'enterprise', keyNumber: 1, rate: perSecond === undefined ? { kind: 'max' } : { kind: 'perSecond', perSecond }, behaviour: 'naive', mix: { list: 1, create: 0, get: 0 } },
        key: key as string,
        perSecond,
      },
    ],
  });
  const result = run.keys[0];
  if (!result) throw new Error('no result');
  const non2xx = Object.entries(result.statusCounts).filter(([status]) => !/^2\d\d$/.test(status)).reduce((sum, [, n]) => sum + n, 0);
  const seconds = durationMs / 1000;
  const perSecondSent = perSecond === undefined ? undefined : Array.from({ length: Math.floor(seconds) }, (_, second) => result.observations.filter((o) => o.sentAt >= second * 1000 && o.sentAt < (second + 1) * 1000).length);
  return { requests: result.sent, seconds, perSecond: result.sent / seconds, non2xx, errors: result.errors, perSecondSent, p99Ms: result.latency.admitted.p99 };
}

function nodeHttp(): Promise<ChildResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const headers = { authorization: `Bearer ${key}` };
  return closedLoop(
    () =>
      new Promise((resolve, reject) => {
        http
          .get(target, { agent, headers }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          })
          .on('error', reject);
      }),
  );
}

function fetchClient(): Promise<ChildResult> {
  const headers = { authorization: `Bearer ${key}` };
  return closedLoop(async () => {
    const response = await fetch(target, { headers });
    await response.arrayBuffer();
    return response.status;
  });
}

function sharedClient(): Promise<ChildResult> {
  const url = new URL(target);
  const client = new HttpClient(url, { maxConnections: connections, timeoutMs: 30_000 });
  const headers = { authorization: `Bearer ${key}` };
  return closedLoop(async () => (await client.request({ method: 'GET', url, headers })).status);
}

function undiciPool(): { pool: Pool; path: string; headers: Record<string, string> } {
  const parsed = new URL(target);
  return { pool: new Pool(parsed.origin, { connections, pipelining: 1 }), path: `${parsed.pathname}${parsed.search}`, headers: { authorization: `Bearer ${key}` } };
}

function undiciRequest(): Promise<ChildResult> {
  const { pool, path, headers } = undiciPool();
  return closedLoop(async () => {
    const response = await pool.request({ path, method: 'GET', headers });
    await response.body.arrayBuffer();
    return response.statusCode;
  });
}

function undiciDispatch(): Promise<ChildResult> {
  const { pool, path, headers } = undiciPool();
  return closedLoop(
    () =>
      new Promise((resolve, reject) => {
        let status = 0;
        // A pool's dispatch takes undici's original handler shape (onConnect ... onComplete) as it is.
        const handler: Dispatcher.DispatchHandler = {
          onConnect: () => undefined,
          onHeaders: (statusCode) => {
            status = statusCode;
            return true;
          },
          onData: () => true,
          onComplete: () => resolve(status),
          onError: reject,
        };
        pool.dispatch({ path, method: 'GET', headers }, handler);
      }),
  );
}

const runners: Record<string, () => Promise<ChildResult>> = {
  'petstore-load': petstoreLoad,
  'lib-http': sharedClient,
  'node-http': nodeHttp,
  fetch: fetchClient,
  'undici-request': undiciRequest,
  'undici-dispatch': undiciDispatch,
};
const runner = runners[client ?? ''];
if (!runner) {
  process.stderr.write(`bench child: unknown client "${client}"; use ${Object.keys(runners).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(await runner())}\n`);
process.exit(0);
