import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import { curlCommand, evidenceOf } from '../../../specs/support/evidence.ts';
import type { Exchange } from '../../../specs/support/exchange.ts';

const exchange = (authorization: string, body?: string): Exchange => ({
  operation: 'createPet',
  request: { method: 'POST', url: 'http://127.0.0.1:8080/v1/pets', headers: { Authorization: authorization, 'Content-Type': 'application/json' }, ...(body ? { body } : {}) },
  response: {
    status: 400,
    headers: { 'content-type': 'application/json', date: 'Sun, 22 Nov 2026 06:00:00 GMT', 'x-ratelimit-reset': '1795000000', 'x-ratelimit-remaining': '3' },
    body: `{"code":"invalid","message":"bad body from demo-pro-2","status":400}`,
  },
  json: undefined,
  plan: 'pro',
  sentAt: 0,
  receivedAt: 0,
  kind: { kind: 'within' },
});

test('evidence names every key by its variable, in headers, bodies and the curl command', () => {
  const evidence = evidenceOf('CREATE-2', exchange('Bearer demo-pro-2', '{"name":"demo-free-1"}'), new Redactor(DEMO_KEYS));
  const text = JSON.stringify(evidence);
  for (const key of Object.values(DEMO_KEYS).flat()) expect(text).not.toContain(key);
  expect(evidence.request.headers.Authorization).toBe('Bearer $PETSTORE_API_KEY_PRO');
  expect(evidence.curl).toBe(
    `curl -i -X POST 'http://127.0.0.1:8080/v1/pets' -H "Authorization: Bearer $PETSTORE_API_KEY_PRO" -H 'Content-Type: application/json' --data-binary '{"name":"$PETSTORE_API_KEY_FREE"}'`,
  );
});

test('evidence masks the headers that change on every response, so two runs compare', () => {
  const evidence = evidenceOf('CREATE-2', exchange('Bearer demo-pro-2'), new Redactor(DEMO_KEYS));
  expect(evidence.response.headers).toMatchObject({ date: '<masked>', 'x-ratelimit-reset': '<masked>', 'x-ratelimit-remaining': '3' });
});

test('a credential that is no configured key is masked, and a long body is cut', () => {
  const long = 'x'.repeat(10_000);
  const evidence = evidenceOf('AUTH-3', { ...exchange(`Basic ${Buffer.from('demo-free-1:').toString('base64')}`), response: { ...exchange('').response, body: long } }, new Redactor(DEMO_KEYS));
  expect(evidence.request.headers.Authorization).toBe('Basic <redacted>');
  expect(evidence.response.body.length).toBeLessThan(4_200);
});

test('curl quotes what the shell must take literally', () => {
  expect(curlCommand('GET', "http://h/v1/pets?status=it's", { 'X-Note': 'a "b" $HOME' }, undefined)).toBe(
    `curl -i -X GET 'http://h/v1/pets?status=it'\\''s' -H 'X-Note: a "b" $HOME'`,
  );
});
