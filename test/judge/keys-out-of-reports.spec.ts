/**
 * Keys out of every artefact: a capture whose failing exchanges carry credentials where production sends them
 * by mistake (a configured key in ?api_key=, tokens no one configured in a query, a JSON body, a response
 * header, a "Bearer …" in a body, a configured key as the exchange format's "key") is judged by the command,
 * and no report it writes (conformance.json, index.html, junit.xml, the job summary) holds any of them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../replay/support.ts';
import { failures, tempDir } from './support.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';

const CONFIGURED = 'configured-pro-key-7f3a9c';
const NAMED_AS_KEY = 'configured-free-key-2b8e41';
const ENV = { PETSTORE_API_KEY_PRO: CONFIGURED, PETSTORE_API_KEY_FREE: NAMED_AS_KEY };
const STRANGERS = {
  query: 'sk_live_query_51HkQ2e',
  requestBody: 'sk_live_body_93xZ0q',
  responseBody: 'sk_live_echo_7Lm2Pw',
  bearerInBody: 'eyJhbGciOiJIUzI1NiJ9.payload.sig',
  header: 'hdr-secret-44Tq1',
  cookie: 'session-c00k1e-9',
  xApiKeyQuery: 'plain-query-key-one',
  bearerEchoedIn401: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  plainBearerEchoed: 'a-key-no-one-issued',
  rawKeyField: 'rk_live_keyfield_9Zq81LmN',
};
const START = 4_000_000_000 - 50;

function line(index: number, fields: Record<string, unknown>): string {
  return JSON.stringify({ time: (START + index * 0.01).toFixed(3), duration: '0.002', status: '200', method: 'GET', ...fields });
}

test('no key, configured or not, reaches conformance.json, index.html, junit.xml or the summary, wherever the capture carried it', () => {
  const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(START + 40) };
  const lines = [
    // Answered 200 without an Authorization header: AUTH-1 fails, and its evidence shows each exchange.
    line(0, { url: `/v1/pets?limit=1&api_key=${CONFIGURED}`, requestHeaders: { authorization: '' }, responseHeaders: headers, responseBody: '[]' }),
    line(1, { url: `/v1/pets?access_token=${STRANGERS.query}`, requestHeaders: { authorization: '' }, responseHeaders: { ...headers, 'x-api-key': STRANGERS.header, 'set-cookie': `sid=${STRANGERS.cookie}` }, responseBody: `{"apiKey": "${STRANGERS.responseBody}", "note": "Bearer ${STRANGERS.bearerInBody}"}` }),
    line(2, { method: 'POST', url: '/v1/pets', status: '201', requestHeaders: { authorization: '', 'content-type': 'application/json' }, requestBody: `{"name":"Rex","categoryId":1,"apiKey":"${STRANGERS.requestBody}"}`, responseHeaders: headers, responseBody: `{"id":1,"name":"Rex","categoryId":1,"echo":"${CONFIGURED}"}` }),
    // A configured key written where a gateway writes a key's name: its pseudonym is shown, never the key.
    line(3, { url: '/v1/pets', status: '401', key: NAMED_AS_KEY, responseHeaders: headers, responseBody: '{"code":"unauthorized","message":"no","status":401}' }),
    // Keys no one configured, as production sends and echoes them: in ?x-api-key=, inside a 401 body, and a raw
    // key where the exchange format names one (its pseudonym is used, and the same key keeps it).
    line(4, { url: `/v1/pets?x-api-key=${STRANGERS.xApiKeyQuery}`, requestHeaders: { authorization: '' }, responseHeaders: headers, responseBody: '[]' }),
    line(5, { url: '/v1/pets', status: '401', requestHeaders: { authorization: `Bearer ${STRANGERS.bearerEchoedIn401}` }, responseHeaders: headers, responseBody: `{"code":"unauthorized","message":"key ${STRANGERS.bearerEchoedIn401} is not valid","status":"401"}` }),
    line(6, { url: '/v1/pets', status: '401', requestHeaders: { authorization: `Bearer ${STRANGERS.plainBearerEchoed}` }, responseHeaders: headers, responseBody: `{"code":"unauthorized","message":"key ${STRANGERS.plainBearerEchoed} is not valid","status":"401"}` }),
    line(7, { url: '/v1/pets', key: STRANGERS.rawKeyField, plan: 'free', responseHeaders: headers, responseBody: `{"echo":"${STRANGERS.rawKeyField}"}` }),
    line(8, { url: '/v1/pets', key: STRANGERS.rawKeyField, plan: 'free', responseHeaders: headers, responseBody: '[]' }),
  ];
  const capture = join(tempDir('keys-out'), 'access.log');
  writeFileSync(capture, `${lines.join('\n')}\n`);
  const output = tempDir('keys-out-reports');
  const summary = join(output, 'summary.md');
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'judge', capture, '--output', output, '--summary', summary], { cwd: ROOT, env: { ...process.env, ...ENV }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(1);
  const report = JSON.parse(readFileSync(join(output, 'conformance.json'), 'utf8')) as ConformanceReport;
  // The echoed body is no list either (LIST-5, RESP-2): every failure shows its exchange as evidence.
  expect(Object.keys(failures(report)).sort()).toEqual(['AUTH-1', 'AUTH-5', 'ERR-1', 'LIST-5', 'RESP-2']);
  for (const name of ['conformance.json', 'index.html', 'junit.xml', 'summary.md']) {
    const text = readFileSync(join(output, name), 'utf8');
    for (const secret of [CONFIGURED, NAMED_AS_KEY, ...Object.values(STRANGERS)]) expect(text, `${name} holds ${secret}`).not.toContain(secret);
  }
  const json = readFileSync(join(output, 'conformance.json'), 'utf8');
  expect(json).toContain('api_key=$PETSTORE_API_KEY_PRO');
  expect(json).toContain('x-api-key=<redacted>');
  expect(json).toContain('key free-1');
  expect(json).toContain('key free-2');
  // The 401 body names the key as its header does.
  expect(json).toContain('key <key unknown-1> is not valid');
  expect(json).toContain('key <key unknown-2> is not valid');
});

test('a line the judge refuses is named on stderr without the key its URL carried', () => {
  const capture = join(tempDir('keys-out-bad'), 'access.log');
  writeFileSync(capture, `${line(0, { url: `http://[bad/v1/pets?x-api-key=${STRANGERS.xApiKeyQuery}&t=${STRANGERS.bearerEchoedIn401}` })}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'judge', capture, '--output', tempDir('keys-out-bad-reports')], { cwd: ROOT, env: { ...process.env, ...ENV }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(2);
  expect(run.stderr).toContain('has a URL that cannot be read');
  for (const secret of [STRANGERS.xApiKeyQuery, STRANGERS.bearerEchoedIn401]) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
});
