import { expect, test } from '@playwright/test';
import { checkResponse, type ResponseToCheck } from '../../../lib/response-checks.ts';
import { operation } from '../../../lib/contract.ts';

const now = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSeconds = now / 1000;
const limitHeaders = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(nowSeconds + 30) };
const json = { 'content-type': 'application/json; charset=utf-8' };

function check(overrides: Partial<ResponseToCheck>): string[] {
  const base: ResponseToCheck = {
    operation: operation('listPets'),
    status: 200,
    headers: { ...json, ...limitHeaders },
    body: '[{"id":1,"name":"Rex","categoryId":2,"status":"available"}]',
    plan: 'free',
    now,
  };
  return checkResponse({ ...base, ...overrides }).map((violation) => violation.rule);
}

test.describe('checkResponse', () => {
  test('a conforming list passes, extra fields and ids above 2^53 included', () => {
    expect(check({})).toEqual([]);
    expect(check({ body: '[{"id":9223372036854775807,"name":"Rex","categoryId":2,"colour":"brown"}]' })).toEqual([]);
  });

  test('an undocumented status is RESP-1', () => {
    expect(check({ status: 500, body: '{"code":"boom","message":"x","status":500}' })).toContain('RESP-1');
    expect(check({ operation: operation('getPet'), status: 400, body: '{"code":"bad","message":"x","status":400}' })).toEqual(['RESP-1']);
  });

  test('a 304 without a body answers a conditional request (HTTP documents it for every GET); to any other request it is RESP-1, and its rate-limit headers are judged either way', () => {
    const notModified = { status: 304, headers: { ...limitHeaders, etag: 'W/"7a-1"' }, body: '' };
    expect(check({ ...notModified, conditional: true })).toEqual([]);
    expect(check({ ...notModified, operation: operation('getPet'), conditional: true })).toEqual([]);
    expect(check({ ...notModified, conditional: true, headers: { etag: 'W/"7a-1"' } })).toContain('RL-4');
    expect(check(notModified)).toEqual(['RESP-1']);
    expect(check({ ...notModified, conditional: false })).toEqual(['RESP-1']);
  });

  test('a wrapped list is RESP-2, a Pet without id is RESP-2', () => {
    expect(check({ body: '{"items":[]}' })).toEqual(['RESP-2']);
    expect(check({ operation: operation('createPet'), status: 201, body: '{"name":"Rex","categoryId":2}' })).toEqual(['RESP-2']);
    expect(check({ body: '[{"id":1,"name":"Rex","categoryId":2,"status":"lost"}]' })).toEqual(['RESP-2']);
    expect(check({ body: '[{"id":1e400,"name":"Rex","categoryId":2}]' })).toEqual(['RESP-2']);
    expect(check({ body: '[{"id":9223372036854775808,"name":"Rex","categoryId":2}]' })).toEqual(['RESP-2']);
  });

  test('JSON is SVC-1: content type and syntax', () => {
    expect(check({ headers: { ...limitHeaders, 'content-type': 'text/plain' } })).toEqual(['SVC-1']);
    expect(check({ body: '[{"id":1,' })).toEqual(['SVC-1']);
  });

  test('an Error body is ERR-1, its status field ERR-2', () => {
    expect(check({ status: 401, body: '{"message":"no key","status":401}', plan: undefined })).toEqual(['ERR-1']);
    expect(check({ status: 401, body: '', plan: undefined })).toEqual(['ERR-1']);
    expect(check({ status: 401, body: '{"code":"unauthorized","message":"no key","status":403}', plan: undefined })).toEqual(['ERR-2']);
  });

  test('rate-limit headers: present (RL-4), plan limit (RL-5), remaining (RL-6), reset (RL-7)', () => {
    expect(check({ headers: { ...json, 'x-ratelimit-limit': '60' } })).toEqual(['RL-4']);
    expect(check({ headers: { ...json, ...limitHeaders, 'x-ratelimit-limit': '61' } })).toEqual(['RL-5']);
    expect(check({ headers: { ...json, ...limitHeaders, 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999' } })).toEqual([]);
    expect(check({ headers: { ...json, ...limitHeaders, 'x-ratelimit-remaining': '61' } })).toEqual(['RL-6']);
    expect(check({ headers: { ...json, ...limitHeaders, 'x-ratelimit-reset': String(now + 30_000) } })).toEqual(['RL-7']);
    expect(check({ headers: { ...json, ...limitHeaders, 'x-ratelimit-reset': String(nowSeconds - 600) } })).toEqual(['RL-7']);
  });

  test('an Enterprise key may report any limit', () => {
    expect(check({ plan: 'enterprise', headers: { ...json, ...limitHeaders, 'x-ratelimit-limit': '123456', 'x-ratelimit-remaining': '5' } })).toEqual([]);
  });

  test('a 429 needs Retry-After (RL-1) as delta-seconds or an HTTP-date (RL-2); its body may be anything JSON', () => {
    const refused = { ...json, ...limitHeaders, 'x-ratelimit-remaining': '0' };
    expect(check({ status: 429, headers: { ...refused, 'retry-after': '3' }, body: '' })).toEqual([]);
    expect(check({ status: 429, headers: { ...refused, 'retry-after': 'Sun, 22 Nov 2026 12:00:05 GMT' }, body: '{"anything":1}' })).toEqual([]);
    expect(check({ status: 429, headers: refused, body: '' })).toEqual(['RL-1']);
    expect(check({ status: 429, headers: { ...refused, 'retry-after': 'soon' }, body: '' })).toEqual(['RL-2']);
  });
});
