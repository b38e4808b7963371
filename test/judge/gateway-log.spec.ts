/**
 * A gateway's own access log judged: Debian's nginx, configured as the how-to writes it (TLS, HTTP/2, the API
 * under a path prefix, the key and plan maps, keys redacted), in front of the reference server and in front of
 * a broken one, driven over HTTP/2 with keys in every form a production log holds (a bearer key of each plan,
 * a configured key sent as Token, bare, as Basic and in the query, an unknown key, none). The correct server's
 * log fails no rule; each broken server's (keys accepted without Bearer; 429s without Retry-After) fails the
 * rule it breaks, and only that one (a listPets that says it is deprecated: VER-3). The log holds no key, whatever
 * query parameter or body member carried it. The same log with its bare key written `<redacted>`, the
 * mark a sanitizer leaves, is read as a header not captured.
 * Skipped, saying how to get nginx, where there is none.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { faultById } from '../suite/support/faults.ts';
import { startVariant } from '../suite/support/variant-target.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { h2Request, NGINX_HINT, nginxPath, OPENSSL_HINT, opensslPath, startNginx, type Gateway } from './nginx.ts';
import { failures, judged, tempDir, verdictOf } from './support.ts';

const SCALE = 10;
const FREE = DEMO_KEYS.free[0] as string;
const PRO = DEMO_KEYS.pro[0] as string;
const BUSINESS = DEMO_KEYS.business[0] as string;
const UNKNOWN = 'a-key-no-one-issued';
/** A secret of a well-known form, in a parameter whose name says nothing. */
const STRANGER = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
/** Names production sends a key under in the query, besides the spec's header. */
const KEY_PARAMETERS = ['api_key', 'x-api-key', 'apiKey', 'access_token', 'key', 'client_secret', 'X-Amz-Signature'];
/** The gateway's key file: each key it knows by a name, never the key. */
const NAMED = { [FREE]: 'free-1', [PRO]: 'pro-1', [BUSINESS]: 'business-1' };

skipWithout(nginxPath() !== undefined, NGINX_HINT);
skipWithout(opensslPath() !== undefined, OPENSSL_HINT);

async function drive(gateway: Gateway): Promise<void> {
  const send = (request: Parameters<typeof h2Request>[2]) => h2Request(gateway.baseUrl, gateway.ca, request);
  // A Free key past its quota (60 a minute, a 6-second window here): the last ones are refused with Retry-After.
  for (let i = 0; i < 70; i++) await send({ path: '/pets?limit=5', authorization: `Bearer ${FREE}` });
  const created = await send({ method: 'POST', path: '/pets', authorization: `Bearer ${PRO}`, body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }) });
  const id = (JSON.parse(created.body) as { id?: number }).id ?? 1;
  await send({ path: `/pets/${id}`, authorization: `Bearer ${PRO}` });
  await send({ path: '/store/orders', authorization: `Bearer   ${PRO}` });
  await send({ path: '/pets?status=sold', authorization: `bearer ${BUSINESS}` });
  for (const authorization of [`Token ${PRO}`, PRO, `Basic ${Buffer.from(`${PRO}:`).toString('base64')}`, `Bearer ${UNKNOWN}`, 'Bearer']) await send({ path: '/pets', authorization });
  for (const name of KEY_PARAMETERS) await send({ path: `/pets?limit=5&${name}=${PRO}` });
  await send({ path: `/pets?q=${STRANGER}` });
  await send({ method: 'POST', path: '/pets', body: JSON.stringify({ name: 'Rex', categoryId: 1, apiKey: UNKNOWN }) });
  await send({ path: '/pets' });
}

async function gatewayLog(broken: 'correct' | 'other-schemes-served' | '429-without-retry-after' | 'list-deprecated'): Promise<string> {
  const server = await startVariant({ timeScale: SCALE, ...(broken === 'correct' ? {} : { transforms: [faultById(broken).proxy!] }) });
  const gateway = await startNginx(server.baseUrl, NAMED);
  try {
    await drive(gateway);
  } finally {
    await gateway.stop();
    await server.close();
  }
  const log = readFileSync(gateway.accessLog, 'utf8');
  for (const key of [FREE, PRO, BUSINESS, UNKNOWN, STRANGER]) expect(log, `the access log holds the key ${key}`).not.toContain(key);
  return gateway.accessLog;
}

test("nginx's log (the how-to's configuration) of traffic to the correct server fails no rule: keys in the wrong form are requests without a key, unknown keys stay apart", async () => {
  const log = await gatewayLog('correct');
  const report = await judged(log);
  expect(failures(report)).toEqual({});
  expect(report.verdict.failedMust).toEqual([]);
  for (const rule of ['RL-1', 'RL-4', 'AUTH-1', 'AUTH-3', 'AUTH-4', 'AUTH-5', 'AUTH-7', 'VER-3']) expect.soft(verdictOf(report, rule), rule).toBe('pass');
  expect(verdictOf(report, 'PLAN-FREE')).not.toBe('fail');
  // nginx logs no response bodies: the rules of bodies are not judged, never passed.
  expect(verdictOf(report, 'RESP-2')).toBe('skipped');
  expect(readFileSync(log, 'utf8')).toContain('"x-ratelimit-remaining":"');
});

test("an Authorization logged as <redacted> alone is a sanitizer's mark, not a bare key: nginx's log with the bare key so written leaves AUTH-1 and AUTH-5 partly checked, never failed", async () => {
  const log = readFileSync(await gatewayLog('correct'), 'utf8');
  // The how-to's recipe logs a bare key as <credential>; a sanitizer would have left <redacted>, and nothing else.
  const bare = '"authorization":"<credential>"';
  expect(log.split(bare)).toHaveLength(2);
  const sanitized = join(tempDir('sanitized'), 'sanitized.log');
  writeFileSync(sanitized, log.replace(bare, '"authorization":"<redacted>"'));
  const report = await judged(sanitized);
  expect(failures(report)).toEqual({});
  for (const rule of ['AUTH-1', 'AUTH-5']) {
    expect.soft(verdictOf(report, rule), rule).toBe('partly-checked');
    expect.soft(report.rules.find((row) => row.id === rule)?.reason, rule).toMatch(/requests whose Authorization header the capture does not hold .*\(1 time\)/);
  }
  // "Token <redacted>" keeps its scheme: still a key sent in another scheme than Bearer, refused as it should be.
  for (const rule of ['AUTH-3', 'AUTH-4', 'AUTH-7']) expect.soft(verdictOf(report, rule), rule).toBe('pass');
});

test("nginx's log (the how-to's configuration) of a server that accepts keys sent without Bearer fails AUTH-3, and nothing else", async () => {
  const report = await judged(await gatewayLog('other-schemes-served'));
  expect(Object.keys(failures(report))).toEqual(['AUTH-3']);
  expect(report.verdict.failedMust).toEqual(['AUTH-3']);
  expect(failures(report)['AUTH-3']).toMatch(/GET \/pets with a credential in another scheme than Bearer, or without one was answered 200/);
});

test("nginx's log (the how-to's configuration) of a server whose 429s lack Retry-After fails RL-1, and nothing else", async () => {
  const report = await judged(await gatewayLog('429-without-retry-after'));
  expect(Object.keys(failures(report))).toEqual(['RL-1']);
});

test("nginx's log (the how-to's configuration) of a server whose listPets answers say it is deprecated fails VER-3, and nothing else", async () => {
  const report = await judged(await gatewayLog('list-deprecated'));
  expect(Object.keys(failures(report))).toEqual(['VER-3']);
  expect(failures(report)['VER-3']).toMatch(/GET \/pets\?limit=5: listPets, which the interface does not deprecate \(only getPet is\), answered 200 with deprecation: @1735689600/);
});
