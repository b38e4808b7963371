/**
 * Keys never leave the client's hands: the recorder writes placeholders wherever a key appears (header,
 * query, request and response bodies, response headers), names keys by plan and tells keys of one plan
 * apart; neither the recorder nor the replayer follows a redirect, so no key is carried to another host.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { knownKeys } from '../../harness/record/credentials.ts';
import { startRecordingProxy } from '../../harness/record/proxy.ts';
import { CaptureWriter } from '../../lib/capture/write.ts';
import { cleanEnv, entry, explain, harEntries, readSummary, runCommand, tempDir, writeHar } from './support.ts';

interface Listening {
  server: Server;
  url: string;
  hits: string[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

async function listen(handler: (request: IncomingMessage, body: string, url: string) => Answer): Promise<Listening> {
  const hits: string[] = [];
  let url = '';
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      hits.push(`${request.method} ${request.url}`);
      const answer = handler(request, body, url);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, hits, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const OWN = { free1: 'sk-own-free-aaaa1111', free2: 'sk-own-free-bbbb2222', unknown: 'sk-stranger-cccc3333', refused: 'sk-revoked-dddd4444' };

test('the recorder writes placeholders for every key, wherever it appears, and never follows a redirect', async () => {
  const trap = await listen(() => ({ status: 200, body: '{}' }));
  const upstream = await listen((request, body, self): Answer => {
    const token = request.headers.authorization?.split(' ')[1] ?? '';
    if (request.url === '/v1/away') return { status: 302, headers: { location: `${trap.url}/collect` } };
    if (request.url === '/v1/home') return { status: 302, headers: { location: `${self}/v1/pets` } };
    if (token === OWN.refused) return { status: 401, body: `{"code":"unauthorized","message":"key ${token} is revoked","status":401}` };
    const limit = token === OWN.unknown ? '300' : '60';
    return { status: 200, headers: { 'x-echo': token, 'x-ratelimit-limit': limit }, body: JSON.stringify({ saw: { url: request.url, body, token } }) };
  });
  const capture = join(tempDir('hygiene'), 'capture.har');
  const writer = await CaptureWriter.open(capture, { name: 'test', version: '1' });
  const warnings: string[] = [];
  const proxy = await startRecordingProxy({
    upstream: `${upstream.url}/v1`,
    port: 0,
    writer,
    keys: knownKeys({ PETSTORE_API_KEY_FREE: `${OWN.free1},${OWN.free2}` }),
    onWarning: (message) => warnings.push(message),
  });
  try {
    const send = (path: string, token: string, body?: string) =>
      fetch(`${proxy.baseUrl}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, redirect: 'manual' });
    expect((await send(`/pets?api_key=${OWN.free1}`, OWN.free1)).status).toBe(200);
    expect((await send('/pets', OWN.free2, `{"name":"${OWN.free2}","categoryId":1}`)).status).toBe(200);
    expect((await send('/pets/1', OWN.refused)).status).toBe(401);
    expect((await send('/pets/2', OWN.unknown)).status).toBe(200);
    const away = await send('/away', OWN.free1);
    expect([away.status, away.headers.get('location')]).toEqual([302, `${trap.url}/collect`]);
    const home = await send('/home', OWN.free1);
    expect(home.headers.get('location')).toBe(`${proxy.baseUrl}/pets`);
  } finally {
    await proxy.close();
    await writer.close();
    await upstream.close();
    await trap.close();
  }

  expect(trap.hits).toEqual([]);
  const text = readFileSync(capture, 'utf8');
  for (const secret of Object.values(OWN)) expect(text.includes(secret), secret).toBe(false);
  const entries = harEntries(capture);
  const authorization = entries.map((e) => e.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value);
  expect(authorization).toEqual([
    'Bearer $PETSTORE_API_KEY_FREE',
    'Bearer $PETSTORE_API_KEY_FREE#2',
    'Bearer $PETSTORE_INVALID_KEY',
    'Bearer $PETSTORE_API_KEY_PRO',
    'Bearer $PETSTORE_API_KEY_FREE',
    'Bearer $PETSTORE_API_KEY_FREE',
  ]);
  expect(entries[0]?.request.url).toContain('api_key=$PETSTORE_API_KEY_FREE');
  expect(entries[1]?.request.postData?.text).toBe('{"name":"$PETSTORE_API_KEY_FREE#2","categoryId":1}');
  expect(entries[2]?.response.content.text).toContain('key $PETSTORE_INVALID_KEY is revoked');
  expect(entries[3]?.response.headers.find((h) => h.name.toLowerCase() === 'x-echo')?.value).toBe('$PETSTORE_API_KEY_PRO');
  // What the upstream said, not what the client was told.
  expect(entries[5]?.response.headers.find((h) => h.name.toLowerCase() === 'location')?.value).toBe(`${upstream.url}/v1/pets`);
  expect(warnings.join('\n')).toMatch(/taken for a Pro key from X-RateLimit-Limit/);
  for (const warning of warnings) expect(warning).not.toContain(OWN.unknown);
});

test('replay does not follow a redirect either: the key goes to the target only', async () => {
  const trap = await listen(() => ({ status: 200, body: '[]' }));
  const target = await listen(() => ({ status: 302, headers: { location: `${trap.url}/v1/pets` } }));
  try {
    const dir = tempDir('redirect');
    const capture = writeHar(dir, 'one.har', [entry({ url: 'http://127.0.0.1:9/v1/pets', headers: { Authorization: 'Bearer $PETSTORE_API_KEY_PRO' }, status: 200, responseBody: '[]' })]);
    const reports = join(dir, 'reports');
    const result = await runCommand('replay', [capture, '--output', reports], cleanEnv({ PETSTORE_BASE_URL: `${target.url}/v1`, PETSTORE_API_KEY_PRO: 'sk-own-pro-eeee5555' }));
    expect(result.code, explain(result)).toBe(1);
    expect(trap.hits).toEqual([]);
    expect(target.hits).toEqual(['GET /v1/pets']);
    const summary = readSummary(reports);
    expect(summary.findings[0]).toMatchObject({ verdict: 'violation', status: { recorded: 200, replayed: 302 } });
    for (const file of ['index.html', 'summary.json']) expect(readFileSync(join(reports, file), 'utf8')).not.toContain('sk-own-pro-eeee5555');
  } finally {
    await target.close();
    await trap.close();
  }
});

test("the recorder's warning for an upstream that did not answer names the request without the key its query carried", async () => {
  const gone = await listen(() => ({ status: 200 }));
  await gone.close();
  const writer = await CaptureWriter.open(join(tempDir('hygiene-gone'), 'capture.har'), { name: 'test', version: '1' });
  const warnings: string[] = [];
  const proxy = await startRecordingProxy({ upstream: `${gone.url}/v1`, port: 0, writer, keys: knownKeys({}), onWarning: (message) => warnings.push(message) });
  try {
    expect((await fetch(`${proxy.baseUrl}/pets?x-api-key=${OWN.unknown}`)).status).toBe(502);
  } finally {
    await proxy.close();
    await writer.close();
  }
  expect(warnings.join('\n')).toMatch(/GET \/v1\/pets\?x-api-key=<redacted>: not recorded, the upstream did not answer/);
});
