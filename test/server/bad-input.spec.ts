/**
 * Malformed requests of every kind: the server answers each with a clear 4xx (or 429) Error and keeps
 * serving; never a 5xx, never a dropped connection without an answer, never a crash. Requests go over raw
 * sockets, so methods, paths, headers and bodies can be anything, not only what a client library allows.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { rawExchange, TestServer, type Answer } from './support.ts';

let server: TestServer;
test.beforeAll(async () => {
  server = await TestServer.start({ anonymousPerMinute: 1_000_000 });
});
test.afterAll(() => server.close());

const KEY = 'demo-enterprise-1';

function httpRequest(method: string, target: string, headers: Array<[string, string]>, body?: Buffer): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
}

function expectClearRefusal(answer: Answer | 'closed', what: string): void {
  expect(answer, what).not.toBe('closed');
  const { status, headers, json } = answer as Answer;
  expect(status, what).toBeGreaterThanOrEqual(200);
  expect(status, what).toBeLessThan(500);
  expect(headers['content-type'], what).toBe('application/json');
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(headers[name], `${what}: ${name}`).toMatch(/^\d+$/);
  if (status >= 400 && !what.startsWith('HEAD ')) expect(json, what).toMatchObject({ code: expect.any(String), message: expect.any(String), status });
}

async function stillServing(): Promise<void> {
  const answer = await server.call('/pets?limit=1', { key: KEY });
  expect(answer.status).toBe(200);
}

test('hand-picked malformed requests are answered with a clear 4xx', async () => {
  const auth: [string, string] = ['Authorization', `Bearer ${KEY}`];
  const json: [string, string] = ['Content-Type', 'application/json'];
  const cases: Array<[string, Buffer | string, number]> = [
    ['garbage instead of a request line', 'HELLO\r\n\r\n', 400],
    ['an HTTP/0.9 request (read as one without a key)', 'GET /v1/pets\r\n\r\n', 401],
    ['a header without a colon', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization Bearer ${KEY}\r\n\r\n`, 400],
    ['headers over 16 KiB', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['both Content-Length and Transfer-Encoding', `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
    ['a broken chunked body', `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400],
    ['a body of NUL bytes', httpRequest('POST', '/v1/pets', [auth, json], Buffer.alloc(100)), 400],
    ['a body that is invalid UTF-8', httpRequest('POST', '/v1/pets', [auth, json], Buffer.from([0x7b, 0xc3, 0x28, 0x7d])), 400],
    ['a chunked body over the size limit', `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${'8000\r\n' + 'a'.repeat(0x8000) + '\r\n'}${'8000\r\n' + 'a'.repeat(0x8000) + '\r\n'}${'10\r\n' + 'a'.repeat(16) + '\r\n'}0\r\n\r\n`, 413],
    ['a Content-Length over the size limit, body not sent', `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n`, 413],
    ['an absolute-form target', httpRequest('GET', 'http://127.0.0.1/v1/pets', [auth]), 404],
    ['an asterisk target', httpRequest('OPTIONS', '*', [auth]), 404],
    ['a percent-encoded NUL in the path', httpRequest('GET', '/v1/pets/%00', [auth]), 404],
    ['dot segments', httpRequest('GET', '/v1/../v1/pets', [auth]), 404],
    ['a query of broken percent escapes', httpRequest('GET', '/v1/pets?limit=%zz&status=%', [auth]), 400],
    ['a huge limit', httpRequest('GET', `/v1/pets?limit=${'9'.repeat(5_000)}`, [auth]), 400],
    ['a petId of 5,000 digits', httpRequest('GET', `/v1/pets/${'7'.repeat(5_000)}`, [auth]), 404],
    ['an unknown method', httpRequest('BREW', '/v1/pets', [auth]), 400],
    ['two Authorization headers', httpRequest('GET', '/v1/pets', [auth, ['Authorization', 'Bearer nope']]), 200],
    ['a non-ASCII Authorization value', Buffer.concat([Buffer.from('GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer '), Buffer.from([0xe9, 0xff]), Buffer.from('\r\n\r\n')]), 401],
  ];
  for (const [what, request, status] of cases) {
    const answer = await rawExchange(server.port, request);
    expectClearRefusal(answer, what);
    expect((answer as Answer).status, what).toBe(status);
  }
  await stillServing();
});

test('a client that disconnects halfway through a body does not disturb the server', async () => {
  const { connect } = await import('node:net');
  await new Promise<void>((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
      setTimeout(() => (socket.destroy(), resolve()), 50);
    });
  });
  await stillServing();
});

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'FOO', 'get', 'P0ST');
const segment = fc.oneof(
  fc.constantFrom('v1', 'pets', 'store', 'orders', '', '.', '..', '%00', '%2F', '{petId}', '-1', '0', '9223372036854775808', '18446744073709551616', '1e3', 'null'),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
const queryValue = fc.oneof(fc.constantFrom('1', '20', '100', '0', '101', 'available', 'sold', '', '%', '%zz'), fc.string({ maxLength: 10 }).map(encodeURIComponent));
const query = fc
  .array(fc.tuple(fc.constantFrom('limit', 'status', 'x', 'limit[]', ''), queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}` : ''));
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(`Bearer ${KEY}`, `bearer ${KEY}`, 'Bearer demo-free-1', 'Bearer', 'Bearer ', 'Basic abc', KEY, `Bearer ${KEY} extra`),
  fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, '')),
);
const contentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=utf-16', 'multipart/form-data', ''),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }).map((text) => Buffer.from(text)),
  fc.record({ name: fc.anything(), categoryId: fc.oneof(fc.anything(), fc.bigInt().map(String)), status: fc.anything() }, { requiredKeys: [] }).map((value) =>
    Buffer.from(JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? ''),
  ),
  fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

test('property: no request of any method, path, headers and body yields a 5xx or goes unanswered', async () => {
  await fc.assert(
    fc.asyncProperty(methods, fc.boolean(), path, query, authorization, contentType, body, async (method, underV1, where, search, auth, type, payload) => {
      const headers: Array<[string, string]> = [];
      if (auth !== undefined) headers.push(['Authorization', auth]);
      if (type !== undefined) headers.push(['Content-Type', type]);
      const target = `${underV1 ? '/v1' : ''}${where}${search}`;
      const answer = await rawExchange(server.port, httpRequest(method, target, headers, payload));
      expectClearRefusal(answer, `${method} ${target}`);
    }),
    { numRuns: 400 },
  );
  await stillServing();
});
