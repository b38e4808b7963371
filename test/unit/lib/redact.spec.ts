import { expect, test } from '@playwright/test';
import { DEMO_KEYS, keysFromEnv } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';

test.describe('redaction', () => {
  const redactor = new Redactor({ free: ['k-free', 'k-free-long'], pro: ['k-pro'], business: [], enterprise: [] });

  test('replaces every known key with the variable that holds it, longest first', () => {
    expect(redactor.text('a k-free-long b k-free c k-pro')).toBe('a $PETSTORE_API_KEY_FREE b $PETSTORE_API_KEY_FREE c $PETSTORE_API_KEY_PRO');
  });

  test('masks an unknown credential in Authorization but keeps the scheme', () => {
    expect(redactor.authorization('Bearer k-pro')).toBe('Bearer $PETSTORE_API_KEY_PRO');
    expect(redactor.authorization('Bearer not-our-secret')).toBe('Bearer <redacted>');
    expect(redactor.authorization('raw-secret')).toBe('<redacted>');
  });

  test('redacts header maps whatever the case of the name', () => {
    expect(redactor.headers({ AUTHORIZATION: 'Basic abc', 'x-echo': 'k-free' })).toEqual({ AUTHORIZATION: 'Basic <redacted>', 'x-echo': '$PETSTORE_API_KEY_FREE' });
  });

  test('reads comma-separated keys per plan and falls back where unset', () => {
    const keys = keysFromEnv({ PETSTORE_API_KEY_FREE: ' a, b ,,', PETSTORE_API_KEY_PRO: '' }, DEMO_KEYS);
    expect(keys.free).toEqual(['a', 'b']);
    expect(keys.pro).toEqual([]);
    expect(keys.business).toEqual(DEMO_KEYS.business);
    expect(() => keysFromEnv({ PETSTORE_API_KEY_FREE: 'has space' })).toThrow(/PETSTORE_API_KEY_FREE/);
  });
});

test.describe('credentials nobody configured', () => {
  const redactor = new Redactor({ free: ['k-free'], pro: [], business: [], enterprise: [] });

  test('are masked in a query, a JSON member and after an auth scheme; prose and auth-params are left alone', () => {
    expect(redactor.text('/pets?limit=2&api_key=sk_live_1&access_token=abc')).toBe('/pets?limit=2&api_key=<redacted>&access_token=<redacted>');
    expect(redactor.text('{"apiKey": "s3cret", "name": "Rex", "token":"t\\"x"}')).toBe('{"apiKey": "<redacted>", "name": "Rex", "token":"<redacted>"}');
    expect(redactor.text('said "Bearer eyJ0.payload.sig" and Basic dXNlcjpwYXNz=')).toBe('said "Bearer <redacted>" and Basic <redacted>');
    expect(redactor.text('the Bearer scheme; Bearer realm="petstore", error="invalid_token"')).toBe('the Bearer scheme; Bearer realm="petstore", error="invalid_token"');
    expect(redactor.text('Bearer <key pro-1> and k-free')).toBe('Bearer <key pro-1> and $PETSTORE_API_KEY_FREE');
  });

  test('a report is copied with every string redacted, and secret members masked whole', () => {
    const report = { rule: 'AUTH-1', evidence: { url: '/pets?key=zz9', headers: { 'set-cookie': 'sid=1', authorization: 'Bearer <key free-1>' }, count: 3 } };
    expect(redactor.deep(report)).toEqual({ rule: 'AUTH-1', evidence: { url: '/pets?key=<redacted>', headers: { 'set-cookie': '<redacted>', authorization: 'Bearer <key free-1>' }, count: 3 } });
  });
});
