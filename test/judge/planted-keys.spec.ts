/**
 * Keys planted in every place a capture carries them, and every artefact the record, judge and replay commands
 * write read for each: the recording, the reports (JSON, HTML, JUnit, the job summary), and what each command
 * printed. The upstream echoes what it was sent, as production's error pages and debug fields do: a 401 naming
 * the refused key, a query's key in the body, a cookie's session in a header. Only one key is configured
 * (the Free key the replay needs); every other is one no part was told of.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT, cleanEnv, explain, finished, listeningProxy, runCommand, type CommandResult } from '../replay/support.ts';
import { tempDir } from './support.ts';

const CONFIGURED = 'configured-free-key-planted-7c1d';
const PLANTED = {
  refusedBearer: 'refused-bearer-key-n0-one-issued',
  xApiKeyQuery: 'plain-query-secret-one',
  accessTokenQuery: 'plain-query-secret-two',
  xApiKeyHeader: 'plain-header-secret-three',
  bodyMember: 'plain-body-secret-four',
  strangerInAnswer: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  jwtInAnswer: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLXBsYW50ZWQ',
  requestCookie: 'plain-cookie-session-five',
  responseCookie: 'plain-set-cookie-six',
  keyField: 'rk_live_keyfield_9Zq81LmNv7TyW',
  harCookie: 'plain-har-cookie-seven',
  basicPassword: 'plain-basic-password-eight',
};
const SECRETS = [CONFIGURED, ...Object.values(PLANTED)];

/** An upstream that echoes whatever credential it was sent, wherever a careless service would. */
function echoing(request: IncomingMessage, body: string, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://upstream.invalid');
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => void response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  if (token !== CONFIGURED) return json(401, { code: 'unauthorized', message: `key ${token ?? 'none'} is not valid`, status: 401 });
  const echoes = [...url.searchParams.values(), request.headers['x-api-key'] ?? '', request.headers.cookie ?? '', PLANTED.strangerInAnswer, `Bearer ${PLANTED.jwtInAnswer}`].join(' ');
  const headers = { 'set-cookie': `sid=${PLANTED.responseCookie}; Path=/; HttpOnly`, 'x-echo-key': String(request.headers['x-api-key'] ?? ''), 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) };
  if (request.method === 'POST') return json(201, { id: 2, name: 'Rex', categoryId: 1, status: 'available', echo: body }, headers);
  json(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'available', note: echoes }], headers);
}

async function startUpstream(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => echoing(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function cli(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return finished(spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Every file under `dir`, however deep. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function recordThrough(dir: string, env: Record<string, string>, upstream: string): Promise<{ har: string; printed: CommandResult }> {
  const har = join(dir, 'recording.har');
  const recorder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'record', '--upstream', upstream, '--port', '0', '--out', har, '--judge', '--report-dir', join(dir, 'record-reports')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const done = finished(recorder);
  const proxy = await listeningProxy(recorder);
  const send = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => fetch(`${proxy}${path}`, { method: init.method ?? 'GET', headers: { authorization: `Bearer ${CONFIGURED}`, ...init.headers }, ...(init.body ? { body: init.body } : {}) });
  expect((await send(`/pets?limit=5&x-api-key=${PLANTED.xApiKeyQuery}&access_token=${PLANTED.accessTokenQuery}`)).status).toBe(200);
  expect((await send('/pets?limit=5', { headers: { 'x-api-key': PLANTED.xApiKeyHeader, cookie: `session=${PLANTED.requestCookie}` } })).status).toBe(200);
  expect((await send('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1, apiKey: PLANTED.bodyMember }) })).status).toBe(201);
  expect((await send('/pets', { headers: { authorization: `Bearer ${PLANTED.refusedBearer}` } })).status).toBe(401);
  expect((await send('/pets', { headers: { authorization: `Basic ${Buffer.from(`user:${PLANTED.basicPassword}`).toString('base64')}` } })).status).toBe(401);
  recorder.kill('SIGINT');
  return { har, printed: await done };
}

/** A capture made elsewhere, holding every key raw: lines of the exchange format, a key in its "key" among them. */
function exchangeLines(dir: string): string {
  const start = Date.now() / 1000 - 60;
  const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(Math.floor(start) + 40), deprecation: '', sunset: '', link: '' };
  const line = (i: number, fields: Record<string, unknown>) => JSON.stringify({ time: (start + i).toFixed(3), duration: '0.002', method: 'GET', status: '200', responseHeaders: headers, ...fields });
  const lines = [
    line(0, { url: `/v1/pets?x-api-key=${PLANTED.xApiKeyQuery}`, requestHeaders: { authorization: '' }, responseBody: `{"echo":"${PLANTED.xApiKeyQuery}"}` }),
    line(1, { url: '/v1/pets', status: '401', requestHeaders: { authorization: `Bearer ${PLANTED.refusedBearer}` }, responseBody: `{"code":"unauthorized","message":"key ${PLANTED.refusedBearer} is not valid","status":"401"}` }),
    line(2, { url: '/v1/pets', key: PLANTED.keyField, plan: 'free', responseBody: `{"echo":"${PLANTED.keyField}","also":"${PLANTED.strangerInAnswer}"}` }),
    line(3, { method: 'POST', url: '/v1/pets', status: '200', requestHeaders: { authorization: '', 'x-api-key': PLANTED.xApiKeyHeader, cookie: `session=${PLANTED.requestCookie}` }, requestBody: JSON.stringify({ name: 'Rex', categoryId: 1, apiKey: PLANTED.bodyMember }), responseBody: `{"seen":"${PLANTED.xApiKeyHeader} ${PLANTED.requestCookie} ${PLANTED.bodyMember}"}` }),
    line(4, { url: `/v1/pets?access_token=${PLANTED.accessTokenQuery}`, requestHeaders: { authorization: `Basic ${Buffer.from(`user:${PLANTED.basicPassword}`).toString('base64')}` }, responseHeaders: { ...headers, 'set-cookie': `sid=${PLANTED.responseCookie}` }, responseBody: `{"note":"Bearer ${PLANTED.jwtInAnswer} for ${PLANTED.basicPassword}"}` }),
  ];
  const file = join(dir, 'gateway.log');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A HAR from a browser's export: cookies in their own arrays, a key in the query and echoed back. */
function browserHar(dir: string): string {
  const at = new Date(Date.now() - 30_000).toISOString();
  const entry = {
    startedDateTime: at,
    time: 5,
    request: { method: 'GET', url: `http://api.example.test/v1/pets?apiKey=${PLANTED.xApiKeyQuery}`, httpVersion: 'HTTP/1.1', headers: [{ name: 'Authorization', value: `Bearer ${CONFIGURED}` }, { name: 'Cookie', value: `sid=${PLANTED.harCookie}` }], cookies: [{ name: 'sid', value: PLANTED.harCookie }], queryString: [{ name: 'apiKey', value: PLANTED.xApiKeyQuery }], headersSize: -1, bodySize: 0 },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Set-Cookie', value: `sid=${PLANTED.harCookie}` }], cookies: [{ name: 'sid', value: PLANTED.harCookie }], content: { size: 10, mimeType: 'application/json', text: `{"cookie":"${PLANTED.harCookie}","key":"${PLANTED.xApiKeyQuery}"}` }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
  const file = join(dir, 'browser.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'browser', version: '1' }, entries: [entry] } }));
  return file;
}

test('a key planted in any place of a capture reaches no recording, report or printed line of record, judge or replay', async () => {
  const dir = tempDir('planted');
  const env = cleanEnv({ PETSTORE_API_KEY_FREE: CONFIGURED });
  const upstream = await startUpstream();
  const printed: Array<[string, CommandResult]> = [];
  try {
    const recorded = await recordThrough(dir, env, upstream.baseUrl);
    printed.push(['record', recorded.printed]);
    expect(recorded.printed.code, explain(recorded.printed)).not.toBe(2);
    const browser = browserHar(dir);
    for (const [name, capture] of [['recording', recorded.har], ['gateway', exchangeLines(dir)], ['browser', browser]] as const) {
      const output = join(dir, `judge-${name}`);
      const judged = await cli(['judge', capture, '--output', output, '--summary', join(output, 'summary.md')], env);
      expect([1, 3], explain(judged)).toContain(judged.code);
      printed.push([`judge ${name}`, judged]);
    }
    for (const [name, capture] of [['reports', recorded.har], ['browser', browser]] as const) {
      const replayed = await runCommand('replay', [capture, '--speed', '0', '--report-dir', join(dir, `replay-${name}`)], { ...env, PETSTORE_BASE_URL: upstream.baseUrl });
      expect([0, 1], explain(replayed)).toContain(replayed.code);
      printed.push([`replay ${name}`, replayed]);
    }
  } finally {
    await upstream.close();
  }

  const artefacts = filesUnder(dir).filter((path) => !/gateway\.log$|browser\.har$/.test(path));
  expect(artefacts.map((path) => path.slice(dir.length + 1)).sort()).toEqual(expect.arrayContaining(['recording.har', 'record-reports/conformance.json', 'judge-gateway/index.html', 'judge-gateway/junit.xml', 'judge-browser/summary.md', 'replay-reports/summary.json', 'replay-reports/index.html', 'replay-browser/summary.json']));
  const leaks: string[] = [];
  for (const path of artefacts) {
    const text = readFileSync(path, 'utf8');
    for (const secret of SECRETS) if (text.includes(secret)) leaks.push(`${path.slice(dir.length + 1)} holds ${secret}`);
  }
  for (const [command, result] of printed) for (const secret of SECRETS) if (`${result.stdout}${result.stderr}`.includes(secret)) leaks.push(`${command} printed ${secret}`);
  expect(leaks).toEqual([]);
  // The judge names the keys it redacted as their headers do: the refused key by its pseudonym, the raw "key" as one.
  const gateway = readFileSync(join(dir, 'judge-gateway', 'conformance.json'), 'utf8');
  expect(gateway).toContain('key <key unknown-1> is not valid');
  expect(gateway).toContain('key free-');
});
