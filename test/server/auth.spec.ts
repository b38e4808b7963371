/** Bearer authentication over HTTP: checked first, on every operation, with a challenge and rate-limit headers. */
import { expect, test } from '@playwright/test';
import type { OperationId } from '../../lib/contract.ts';
import { contractProblems, TestServer, type CallOptions } from './support.ts';

let server: TestServer;
test.beforeAll(async () => {
  server = await TestServer.start();
});
test.afterAll(() => server.close());

const OPERATIONS: Array<[OperationId, string, CallOptions]> = [
  ['listPets', '/pets', {}],
  ['createPet', '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }],
  ['getPet', '/pets/1', {}],
  ['listOrders', '/store/orders', {}],
];

const REFUSED: Array<[string, Record<string, string>, RegExp]> = [
  ['no Authorization header', {}, /header is missing/],
  ['an unknown key', { authorization: 'Bearer not-a-key' }, /not valid/],
  ['the Basic scheme', { authorization: `Basic ${Buffer.from('demo-free-1:').toString('base64')}` }, /Bearer scheme/],
  ['the raw key without a scheme', { authorization: 'demo-free-1' }, /Bearer scheme/],
  ['an empty bearer token', { authorization: 'Bearer ' }, /token is empty/],
  ['a known key with a different case', { authorization: 'Bearer DEMO-FREE-1' }, /not valid/],
];

for (const [operation, path, options] of OPERATIONS) {
  test.describe(operation, () => {
    for (const [what, headers, reason] of REFUSED) {
      test(`${what} is a 401 Error with a Bearer challenge and rate-limit headers`, async () => {
        const answer = await server.call(path, { ...options, headers: { ...options.headers, ...headers } });
        expect(answer.status).toBe(401);
        expect(answer.json).toMatchObject({ code: 'unauthorized', status: 401, message: expect.stringMatching(reason) });
        expect(answer.headers['www-authenticate']).toMatch(/^Bearer\b/);
        expect(answer.body).not.toContain('demo-free-1');
        expect(contractProblems(operation, answer)).toEqual([]);
      });
    }

    test('a valid key is accepted, the scheme name in any case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const answer = await server.call(path, { ...options, headers: { ...options.headers, authorization: `${scheme} demo-pro-1` } });
        expect(answer.status, scheme).toBeLessThan(300);
        expect(contractProblems(operation, answer, { plan: 'pro' })).toEqual([]);
      }
    });
  });
}

test('authentication comes before routing and validation', async () => {
  expect((await server.call('/no-such-route')).status).toBe(401);
  expect((await server.call('/pets', { method: 'DELETE' })).status).toBe(401);
  expect((await server.call('/pets?limit=0')).status).toBe(401);
  expect((await server.call('/pets', { method: 'POST', body: 'not json' })).status).toBe(401);
});

test('a 401 shows the anonymous allowance of the client address: 600 per minute, falling', async () => {
  const fresh = await TestServer.start();
  try {
    const first = await fresh.call('/pets');
    const second = await fresh.call('/pets', { key: 'wrong' });
    expect(first.headers['x-ratelimit-limit']).toBe('600');
    expect(first.headers['x-ratelimit-remaining']).toBe('599');
    expect(second.headers['x-ratelimit-remaining']).toBe('598');
  } finally {
    await fresh.close();
  }
});
