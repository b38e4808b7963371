/** Which requests are within the contract, outside it or at a gap, as fixtures/openapi.yaml says, and how each kind's answers are checked. */
import { expect, test } from '@playwright/test';
import { classifyRequest, lenientInteger, operation, type RequestToClassify } from '../../../lib/contract.ts';
import { checkResponse, type ResponseToCheck } from '../../../lib/response-checks.ts';

const get = (id: string): RequestToClassify => ({ operation: 'getPet', method: 'GET', path: `/pets/${encodeURIComponent(id)}` });
const list = (query: string): RequestToClassify => ({ operation: 'listPets', method: 'GET', path: `/pets?${query}` });
const create = (body: string, contentType = 'application/json'): RequestToClassify => ({ operation: 'createPet', method: 'POST', path: '/pets', body, contentType });

test('a petId that is an int64 written plainly is within the contract, above 2^53 too; any other is outside it (GET-GAP-1)', () => {
  for (const id of ['1', '0', '-1', String(2n ** 63n - 5n), String(2n ** 53n + 1n), String(-(2n ** 63n))]) expect(classifyRequest(get(id)).kind, id).toBe('within');
  for (const id of ['abc', ' ', '+5', '007', String(2n ** 63n), '1.5', '0x10', '-0']) expect(classifyRequest(get(id)), id).toMatchObject({ kind: 'outside', gap: 'GET-GAP-1' });
});

test('a list query outside its schema is outside the contract, in its parameter’s gap', () => {
  for (const query of ['limit=1', 'limit=100', 'status=sold', 'limit=5&status=pending', 'other=1']) expect(classifyRequest(list(query)).kind, query).toBe('within');
  for (const query of ['limit=0', 'limit=101', 'limit=05', 'limit=', 'limit=abc']) expect(classifyRequest(list(query)), query).toMatchObject({ kind: 'outside', gap: 'LIST-GAP-2' });
  for (const query of ['status=Sold', 'status=lost', 'status=', 'status=%20sold']) expect(classifyRequest(list(query)), query).toMatchObject({ kind: 'outside', gap: 'LIST-GAP-4' });
});

test('a NewPet of ordinary values is within the contract, one with a value whose acceptance is open is at its gap, an invalid body is within (400)', () => {
  expect(classifyRequest(create('{"name":"Rex","categoryId":1,"status":"sold"}')).kind).toBe('within');
  expect(classifyRequest(create('{"name":"conformance 1a2b3c4d","categoryId":1}')).kind).toBe('within');
  expect(classifyRequest(create('{"name":"","categoryId":1}'))).toMatchObject({ kind: 'gap', gap: 'RES-GAP-2' });
  expect(classifyRequest(create(`{"name":"${'n'.repeat(101)}","categoryId":1}`))).toMatchObject({ kind: 'gap', gap: 'RES-GAP-2' });
  expect(classifyRequest(create('{"name":"Rex","categoryId":9223372036854775807}'))).toMatchObject({ kind: 'gap', gap: 'RES-GAP-1' });
  for (const body of ['{"categoryId":1}', '{"name":5,"categoryId":1}', '{"name":"Rex","categoryId":1,"status":"Sold"}', '{', '[]']) expect(classifyRequest(create(body)).kind, body).toBe('within');
});

test('a body beyond plain JSON is outside the contract (CREATE-GAP-2): another media type, over 64 KiB, a name given twice, deep nesting', () => {
  for (const request of [
    create('{"name":"Rex","categoryId":1}', 'text/plain'),
    { ...create('{"name":"Rex","categoryId":1}'), contentType: undefined },
    create(`{"name":"${'x'.repeat(70_000)}","categoryId":1}`),
    create('{"name":"Rex","categoryId":1,"name":"Max"}'),
    create(`{"name":${'['.repeat(100)}${']'.repeat(100)},"categoryId":1}`),
  ]) {
    expect(classifyRequest(request), String(request.body).slice(0, 40)).toMatchObject({ kind: 'outside', gap: 'CREATE-GAP-2' });
  }
  expect(classifyRequest(create('{"name":"Rex","categoryId":1,"tags":{"name":"x"}}')).kind, 'the same name in another object').toBe('within');
});

test('a lenient reading of an integer: leading zeros, a plus sign, spaces, a whole fraction, an exponent, hexadecimal; none for 1.5 or text', () => {
  const cases: Array<[string, bigint | undefined]> = [['007', 7n], ['+5', 5n], [' 5 ', 5n], ['5.0', 5n], ['1e2', 100n], ['2.5e1', 25n], ['0x10', 16n], ['-0', 0n], ['1.5', undefined], ['1e-1', undefined], ['abc', undefined], ['', undefined]];
  for (const [text, reading] of cases) expect(lenientInteger(text), text).toBe(reading);
});

const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) };
const error = (status: number): string => JSON.stringify({ code: 'validation_error', message: 'petId must be an integer', status });
const answer = (status: number, body: string, outsideContract: boolean): string[] =>
  checkResponse({ operation: operation('getPet'), status, headers, body, outsideContract } satisfies ResponseToCheck).map((violation) => violation.rule);

test('outside the contract any client error with an Error fits; a server error, or a client error without an Error, does not', () => {
  for (const status of [400, 404, 422, 413]) expect(answer(status, error(status), true), String(status)).toEqual([]);
  expect(answer(500, error(500), true)).toEqual(['RESP-1']);
  expect(answer(422, '{"detail":[{"loc":["path","petId"]}]}', true)).toContain('ERR-1');
  expect(answer(422, error(400), true)).toEqual(['ERR-2']);
  expect(answer(422, error(422), false), 'within the contract, 422 is undocumented for getPet').toEqual(['RESP-1']);
});

test('OWASP’s first tries are judged by their kind: a query parameter given twice, a key special in JavaScript runtimes, an integer in another spelling, no body at all', () => {
  for (const query of ['limit=5&limit=7', 'limit=5&limit=5']) expect(classifyRequest(list(query)), query).toMatchObject({ kind: 'outside', gap: 'LIST-GAP-2' });
  for (const query of ['status=sold&status=available', 'status=sold&status=sold']) expect(classifyRequest(list(query)), query).toMatchObject({ kind: 'outside', gap: 'LIST-GAP-4' });
  for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
    expect(classifyRequest(create(`{"name":"Rex","categoryId":1,"${key}":{"status":"sold"}}`)), key).toMatchObject({ kind: 'outside', gap: 'CREATE-GAP-2' });
  }
  expect(classifyRequest(create('{"name":"Rex","categoryId":1,"tags":{"__proto__x":1}}')).kind, 'a key that only begins like one').toBe('within');
  for (const written of ['1.0', '1e0', '1E+2', '100.0', '-0']) expect(classifyRequest(create(`{"name":"Rex","categoryId":${written}}`)), written).toMatchObject({ kind: 'outside', gap: 'CREATE-GAP-2' });
  for (const written of ['0.5', '007', '+5', '0x10', 'NaN', '9'.repeat(400)]) expect(classifyRequest(create(`{"name":"Rex","categoryId":${written}}`)).kind, `${written.slice(0, 20)}: the schema or JSON refuses it, so the spec answers 400`).toBe('within');
  expect(classifyRequest({ operation: 'createPet', method: 'POST', path: '/pets' })).toMatchObject({ kind: 'outside', gap: 'CREATE-GAP-2', why: 'a request with no body' });
});
