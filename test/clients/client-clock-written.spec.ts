/**
 * The client's own clock tells when a request was written to its socket, not when it was made (fast-clock.mjs,
 * harness/client-rules/crossing.ts): a client whose pool has one connection makes two requests at once, and the
 * second waits for the first's 429. Stamped as it was made, the second would read as sent before that 429 reached
 * its client, crossed on the wire and excused; it was written after.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CLIENT_REQUEST_HEADER, ClientEvidence, clientRequestName, REFUSAL_HEADER } from '../../harness/client-rules/crossing.ts';

const FAST_CLOCK = path.resolve('harness/client-rules/fast-clock.mjs');
/** How long the server holds the first answer of each pair: the second request waits that long for the connection. */
const HOLD_MS = 300;

/** Two requests at once through Node's http, then two through undici, each on a pool of one connection. */
const CLIENT = `
import http from 'node:http';
import { Pool } from 'undici';
const url = new URL(process.env.TARGET);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (name) => new Promise((resolve, reject) => http.get({ host: url.hostname, port: url.port, path: '/' + name, agent }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject));
await Promise.all([get('http-first'), get('http-second')]);
agent.destroy();
const pool = new Pool(url.origin, { connections: 1, pipelining: 1 });
const fetched = (name) => pool.request({ path: '/' + name, method: 'GET' }).then(({ body }) => body.text());
await Promise.all([fetched('undici-first'), fetched('undici-second')]);
await pool.close();
`;

test('ERR-3 a request that waited for its pool\'s connection is stamped when it was written, after the 429 it waited behind, through Node\'s http and undici', async () => {
  const evidence = new ClientEvidence();
  const named = new Map<string, string>();
  const answered = new Map<string, number>();
  let refusals = 0;
  const server = http.createServer((req, res) => {
    const which = (req.url ?? '/').slice(1);
    const name = clientRequestName(req.headers[CLIENT_REQUEST_HEADER]);
    if (name !== undefined) named.set(which, name);
    const answer = (): void => {
      answered.set(which, Date.now());
      res.writeHead(429, { 'retry-after': '1', [REFUSAL_HEADER]: String(++refusals) }).end();
    };
    if (which.endsWith('first')) setTimeout(answer, HOLD_MS);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, ['--import', FAST_CLOCK, '--input-type=module', '-e', CLIENT], { env: { ...process.env, TARGET: target, PETSTORE_CLIENT_EVIDENCE: evidence.dir }, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const { sent, received } = evidence.read();
    for (const stack of ['http', 'undici']) {
      const first = named.get(`${stack}-first`);
      const second = named.get(`${stack}-second`);
      expect(first, `${stack}: each request named`).toBeDefined();
      expect(second, `${stack}: each request named`).toBeDefined();
      const writtenAt = sent.get(second as string) as number;
      // Written once the first was answered (a millisecond's grace for two readings of one machine's clock).
      expect(writtenAt, `${stack}: the second request's write`).toBeGreaterThanOrEqual((answered.get(`${stack}-first`) as number) - 1);
      expect(writtenAt - (sent.get(first as string) as number), `${stack}: the second waited for the first`).toBeGreaterThan(HOLD_MS * 0.8);
    }
    expect([...received.keys()].sort()).toEqual(['1', '2', '3', '4']);
  } finally {
    server.close();
    evidence.close();
  }
});
