/**
 * What looks like a credential (lib/credential-shape.ts), and what does not: every part redacts by this one
 * definition, so its misses leak keys and its false alarms hide evidence. Both are listed here.
 */
import { expect, test } from '@playwright/test';
import { credentialsCarried, isKeyLikeName, isTokenShaped, looksLikeKey, tokensMasked } from '../../../lib/credential-shape.ts';
import { Redactor } from '../../../lib/redact.ts';

const TOKENS = [
  'sk_live_51HkQ2eZvKYlo2C8A',
  'sk_live_query_51HkQ2e',
  'pk_test_TYooMQauvdEDq54NiTphI7jx',
  'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  'xoxb-123456789012-abcdefghijkl',
  'AKIAIOSFODNN7EXAMPLE',
  'eyJhbGciOiJIUzI1NiJ9.payload.sig',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  // Random: mixed case and digits, 20 or more; one case and digits, 24 or more; base64url with - and _.
  'Zx81kQp02LmNv7TyW3aB',
  'k3j9x0q2m8v7c6b5n4z1l0p9o8i7',
  'live-Q2eZvKYlo2C8AxHk9fPs7Lw-3',
  'dGhpcyBpcyBhIHNlY3JldCBrZXkgMTIz==',
];

const ORDINARY = [
  '9223372036854775807',
  '123e4567-e89b-12d3-a456-426614174000',
  '4bf92f3577b34da6a3ce929d0e0e4736',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '665f6a7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a',
  'PLAN-ENTERPRISE-AGREED',
  'judge-PLAN-ENTERPRISE-AGREED',
  'unknown-plan-2',
  'petstore-judge-keys-out-aB3dE9',
  'x-ratelimit-remaining',
  'application/json; charset=utf-8',
  '2026-11-27T21:45:41.123Z',
  'Fluffy McFlufferson the 3rd',
  'Mr-Whiskers-2nd-of-Kensington',
  '$PETSTORE_API_KEY_FREE#2',
  'W/"5f3a9c0d1e2f"',
];

test('well-known secrets and random-looking strings are token-shaped', () => {
  for (const token of TOKENS) expect(isTokenShaped(token), token).toBe(true);
});

test('ids, digests, names, words, dates and placeholders are not', () => {
  for (const text of ORDINARY) {
    expect(isTokenShaped(text), text).toBe(false);
    expect(tokensMasked(text, '<redacted>'), text).toBe(text);
  }
});

test('a token is masked inside prose, a path and a JSON body, the text around it kept', () => {
  expect(tokensMasked('key sk_live_4eC39HqLyjWDarjtT1 is not valid', '#')).toBe('key # is not valid');
  expect(tokensMasked('/v1/pets/Zx81kQp02LmNv7TyW3aB?limit=5', '#')).toBe('/v1/pets/#?limit=5');
  expect(tokensMasked('{"echo":"k3j9x0q2m8v7c6b5n4z1l0p9o8i7","id":42}', '#')).toBe('{"echo":"#","id":42}');
});

test('key-like names are told by their words, not by a substring', () => {
  for (const name of ['api_key', 'x-api-key', 'X-API-KEY', 'apiKey', 'apikey', 'key', 'access_token', 'id_token', 'client_secret', 'password', 'X-Amz-Signature', 'sig', 'sid', 'session_id', 'set-cookie', 'x-auth-token', 'privateKey', 'subscription-key']) {
    expect(isKeyLikeName(name), name).toBe(true);
  }
  for (const name of ['limit', 'status', 'monkey', 'keyword', 'keyName', 'name', 'author', 'authorization', 'x-ratelimit-reset', 'categoryId', 'turkey_count']) expect(isKeyLikeName(name), name).toBe(false);
});

test("a value in the exchange format's key is a key when it looks like one, a name otherwise", () => {
  for (const key of ['sk_live_51HkQ2eZvKYlo2C8A', 'configured-free-key-2b8e41', 'a1b2c3d4e5f6a7b8c9d0']) expect(looksLikeKey(key), key).toBe(true);
  for (const name of ['pro-1', 'partner-7', 'mobile-app', 'unknown', 'checkout-service-eu']) expect(looksLikeKey(name), name).toBe(false);
});

test('the redactor masks by position whoever issued the key, keeps placeholders and pseudonyms, and replaces what it learned', () => {
  const redactor = new Redactor({ free: ['k-free-key'], pro: [], business: [], enterprise: [] });
  expect(redactor.text('/pets?x-api-key=plain&limit=5&sortKey=name')).toBe('/pets?x-api-key=<redacted>&limit=5&sortKey=<redacted>');
  expect(redactor.text('/pets?api_key=k-free-key')).toBe('/pets?api_key=$PETSTORE_API_KEY_FREE');
  expect(redactor.text('sid=abc123; Path=/; HttpOnly')).toBe('sid=<redacted>; Path=/; HttpOnly');
  expect(redactor.text('{"key":"pro-1","client_secret":"s"}')).toBe('{"key":"pro-1","client_secret":"<redacted>"}');
  expect(redactor.text('{"key":"configured-free-key-2b8e41"}')).toBe('{"key":"<redacted>"}');
  expect(redactor.text('{"body":"{\\"apiKey\\":\\"plain\\"}"}')).toBe('{"body":"{\\"apiKey\\":\\"<redacted>\\"}"}');
  expect(redactor.member('X-Api-Key', 'short')).toBe('<redacted>');
  expect(redactor.member('key', 'pro-1')).toBe('pro-1');
  redactor.learn('a-key-no-one-issued', '<key unknown-1>');
  redactor.learn('abc');
  expect(redactor.text('{"message":"key a-key-no-one-issued is not valid","abc":1}')).toBe('{"message":"key <key unknown-1> is not valid","abc":1}');
});

test('what a request carries under key-like names is learnt for replacing everywhere, but not a plain word', () => {
  const carried = credentialsCarried({
    url: '/v1/pets?limit=5&x-api-key=plain-query-secret-1&key=pro-1&key=sk_live_51HkQ2eZvKYlo2C8A',
    headers: { 'X-Api-Key': 'header-secret-2', Cookie: 'theme=dark; session=c00kie-value-3', Authorization: 'Bearer not-read-here-4' },
    body: '{"name":"Rex","auth":{"token_type":"bearer","access_token":"body-secret-5"},"apiKey":"short"}',
  });
  expect(carried.sort()).toEqual(['body-secret-5', 'c00kie-value-3', 'header-secret-2', 'plain-query-secret-1', 'sk_live_51HkQ2eZvKYlo2C8A']);
});
