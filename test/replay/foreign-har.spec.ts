/**
 * A capture made elsewhere, as browser devtools save it: the page's own requests to other hosts, a request
 * the browser blocked (status 0), HTTP/2 pseudo-headers, base64 bodies, compressed-transfer headers, a
 * literal demo key, and the Pet Store under a base path of its own. Only the Pet Store requests are
 * replayed; the rest is skipped and counted, and the literal key appears in no report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { entry, explain, readSummary, runCommand, tempDir, writeHar } from './support.ts';

const STORE = 'https://petstore.example.test/api/v1';
const browserHeaders = (extra: Record<string, string> = {}) => ({
  ':authority': 'petstore.example.test',
  ':method': 'GET',
  ':scheme': 'https',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Mozilla/5.0',
  authorization: 'Bearer demo-pro-1',
  ...extra,
});

test('entries for other hosts are skipped and counted; the Pet Store entries replay, keys kept out of the reports', async () => {
  const pet = '{"id":7,"name":"Rex junior","categoryId":1,"status":"available"}';
  const dir = tempDir('foreign');
  const capture = writeHar(dir, 'devtools.har', [
    entry({ url: 'https://cdn.example.com/app.js', status: 200, responseHeaders: { 'content-type': 'text/javascript' }, responseBody: 'console.log(1)' }),
    entry({ url: 'https://fonts.example.net/inter.woff2', status: 200, responseHeaders: { 'content-type': 'font/woff2' } }),
    entry({ method: 'POST', url: 'https://analytics.example.org/collect', status: 204, body: '{"event":"view"}' }),
    entry({ url: `${STORE}/pets?status=sold`, headers: browserHeaders(), status: 0 }),
    entry({
      method: 'POST',
      url: `${STORE}/pets`,
      headers: browserHeaders({ ':method': 'POST', 'content-type': 'application/json' }),
      body: '{"name":"Rex junior","categoryId":1,"status":"available"}',
      status: 201,
      responseHeaders: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': '1790000000', location: '/api/v1/pets/7' },
      responseBody: pet,
    }),
    { ...entry({ url: `${STORE}/pets/7`, headers: browserHeaders(), status: 200, responseHeaders: { 'content-type': 'application/json' } }), response: base64Response(pet) },
    entry({ url: 'https://cdn.example.com/logo.svg', status: 200, responseHeaders: { 'content-type': 'image/svg+xml' }, responseBody: '<svg/>' }),
  ]);

  const reports = join(dir, 'reports');
  const result = await runCommand('replay', [capture, '--speed', '0', '--output', reports]);
  expect(result.code, explain(result)).toBe(0);
  const summary = readSummary(reports);
  expect(summary).toMatchObject({
    recordedBase: STORE,
    exchanges: 2,
    violations: { exchanges: 0 },
    skipped: { otherHosts: 4, unanswered: 1, byHost: { 'cdn.example.com': 2, 'fonts.example.net': 1, 'analytics.example.org': 1 } },
  });
  // The base64 body decoded and the pet created at replay found by its id: the fetch shows no body difference.
  const fetch = summary.findings.find((f) => f.path === '/pets/7');
  expect((fetch?.differences ?? []).filter((d) => d.where.startsWith('body'))).toEqual([]);
  expect(result.stdout).toContain('4 for other hosts, 1 unanswered');

  for (const file of ['index.html', 'summary.json']) expect(readFileSync(join(reports, file), 'utf8')).not.toContain('demo-pro-1');
  expect(result.stdout + result.stderr).not.toContain('demo-pro-1');
});

function base64Response(text: string) {
  return {
    status: 200,
    statusText: '',
    httpVersion: 'h2',
    cookies: [],
    headers: [{ name: 'content-type', value: 'application/json' }],
    content: { size: text.length, mimeType: 'application/json', text: Buffer.from(text).toString('base64'), encoding: 'base64' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
  };
}
