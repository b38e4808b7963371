/** The shared HTTP/1.1 client: framing, keep-alive, and failures reported as errors, not thrown. */
import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { HttpClient, RequestError } from '../../../lib/http/client.ts';
import { HttpProtocolError, MAX_BODY_BYTES, ResponseParser } from '../../../lib/http/response-parser.ts';
import { RequestShapeError } from '../../../lib/http/request-bytes.ts';
import { resetOnceServer } from '../../support/reset-once-server.ts';

test('the parser reads Content-Length bodies split across chunks, chunked bodies and bodies ended by close', () => {
  const parser = new ResponseParser();
  expect(parser.push(Buffer.from('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nX-RateLimit-Limit: 60\r\nContent-Le'))).toBeUndefined();
  expect(parser.push(Buffer.from('ngth: 5\r\n\r\n{"a"'))).toBeUndefined();
  const done = parser.push(Buffer.from('}'));
  expect(done).toMatchObject({ status: 429, keepAlive: true, headers: { 'retry-after': '3', 'x-ratelimit-limit': '60' } });
  expect(done?.body.toString()).toBe('{"a"}');

  const chunked = new ResponseParser().push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'));
  expect(chunked?.body.toString()).toBe('abcde');

  const closing = new ResponseParser();
  expect(closing.push(Buffer.from('HTTP/1.0 200 OK\r\n\r\nhello'))).toBeUndefined();
  expect(closing.end()).toMatchObject({ status: 200, keepAlive: false });

  const informational = new ResponseParser().push(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'));
  expect(informational).toMatchObject({ status: 204, keepAlive: false });
});

test('the client reuses kept-alive connections, survives a server closing idle ones, and reports failures as RequestError', async () => {
  let connections = 0;
  let slowRequests = 0;
  const server = http.createServer({ keepAliveTimeout: 100 }, (req, res) => {
    if (req.url === '/slow') {
      slowRequests++;
      return void setTimeout(() => res.end('late'), 1_000);
    }
    res.setHeader('x-ratelimit-remaining', '7');
    res.end(req.url);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new HttpClient(new URL(`http://127.0.0.1:${port}/v1`), { maxConnections: 2, timeoutMs: 300 });
  const request = (path: string): Buffer => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  try {
    for (let i = 0; i < 20; i++) {
      const response = await client.send(request(`/n${i}`));
      expect(response.body.toString()).toBe(`/n${i}`);
    }
    expect(connections).toBe(1);
    // The server drops the idle connection after 100 ms; the next request goes out on a new one.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await client.send(request('/after-idle'))).headers['x-ratelimit-remaining']).toBe('7');
    const slow = await client.send(request('/slow')).catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(RequestError);
    expect((slow as RequestError).code).toBe('ETIMEDOUT');
    expect(slowRequests, 'a request that timed out on a kept-alive connection reached the server: it is not sent again').toBe(1);
  } finally {
    client.close();
    server.closeAllConnections();
    server.close();
  }
});

test('a refused connection is a RequestError naming the address', async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const client = new HttpClient(new URL(`http://127.0.0.1:${port}/v1`), { maxConnections: 1, timeoutMs: 1_000 });
  const error = await client.send(Buffer.from('GET / HTTP/1.1\r\n\r\n')).catch((failure: unknown) => failure);
  client.close();
  expect(error).toBeInstanceOf(RequestError);
  expect((error as Error).message).toBe(`connection refused by http://127.0.0.1:${port}`);
});

test('request() writes the exact body bytes with its own framing, and refuses another origin, a header or a path that would split the request', async () => {
  const seen: { method: string; url: string; host: string; length: string; body: string; auth: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        length: req.headers['content-length'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        auth: req.headers.authorization ?? '',
      });
      res.writeHead(302, { location: 'http://127.0.0.2/elsewhere' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const client = new HttpClient(new URL(`${origin}/v1`), { maxConnections: 1, timeoutMs: 2_000 });
  try {
    const body = '{"name": "Ré\\u00e9",, }';
    const response = await client.request({
      method: 'POST',
      url: new URL(`${origin}/v1/pets?x=1`),
      headers: { Authorization: 'Bearer k', 'Content-Length': '999', 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(302);
    expect(seen).toEqual([{ method: 'POST', url: '/v1/pets?x=1', host: `127.0.0.1:${port}`, length: String(Buffer.byteLength(body)), body, auth: 'Bearer k' }]);

    const elsewhere = await client.request({ method: 'GET', url: new URL('http://127.0.0.2/elsewhere'), headers: { Authorization: 'Bearer k' } }).catch((error: unknown) => error);
    expect((elsewhere as RequestError).code).toBe('EORIGIN');
    const split = client.request({ method: 'GET', url: new URL(`${origin}/v1`), headers: { 'X-Evil': 'a\r\nInjected: 1' } });
    await expect(split).rejects.toThrow(RequestShapeError);
    for (const path of ['/v1/pets HTTP/1.1\r\nX: 1', '/v1/a b', 'v1/pets', 'http://127.0.0.2/v1/pets', '/v1/pé']) {
      await expect(client.request({ method: 'GET', url: path, headers: {} }), path).rejects.toThrow(RequestShapeError);
    }
    expect(seen).toHaveLength(1);

    // A path alone goes to the client's own origin, with its Host.
    await client.request({ method: 'GET', url: '/v1/pets/7?limit=5', headers: { Authorization: 'Bearer k' } });
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/v1/pets/7?limit=5', host: `127.0.0.1:${port}`, auth: 'Bearer k' });
  } finally {
    client.close();
    server.close();
  }
});

test('the parser keeps header lines as sent for recordings, and refuses a body past its bound instead of buffering it', () => {
  const response = new ResponseParser().push(Buffer.from('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nX-Trace: a\r\nx-trace: b\r\nContent-Length: 0\r\n\r\n'));
  expect(response).toMatchObject({ statusText: 'Too Many Requests', httpVersion: '1.1', headers: { 'x-trace': 'a, b' } });
  expect(response?.rawHeaders).toEqual([['Retry-After', '3'], ['X-Trace', 'a'], ['x-trace', 'b'], ['Content-Length', '0']]);

  expect(() => new ResponseParser().push(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`))).toThrow(HttpProtocolError);
  const endless = new ResponseParser();
  endless.push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'));
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  expect(() => {
    for (let i = 0; i < 20; i++) endless.push(framed);
  }).toThrow(/more than/);
});

/** A batching client with `maxConnections` to a server that answers with the path asked for. */
async function withEchoServer(maxConnections: number, run: (client: HttpClient, origin: string) => Promise<void>): Promise<void> {
  const server = http.createServer((req, res) => res.end(req.url));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const client = new HttpClient(new URL(`${origin}/v1`), { maxConnections, timeoutMs: 2_000, batchWrites: true });
  try {
    await run(client, origin);
  } finally {
    client.close();
    server.closeAllConnections();
    server.close();
  }
}

test('with batchWrites, the requests made in one turn are held to its end, then all sent and each answered on its own connection', async () => {
  await withEchoServer(4, async (client, origin) => {
    const paths = ['/a', '/b', '/c', '/d', '/e', '/f'];
    const answers = await Promise.all(paths.map((path) => client.request({ method: 'GET', url: new URL(`${origin}${path}`), headers: {} })));
    expect(answers.map((answer) => answer.body.toString())).toEqual(paths);
    expect(client.openConnections).toBe(4);
  });
});

test('with batchWrites, a request others wait for (writeNow) is written in the turn it is made, before the held ones', async () => {
  const written: string[] = [];
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, ...args: Parameters<typeof write>) {
    const requestLine = /^GET (\S+)/.exec(String(args[0]));
    if (requestLine) written.push(requestLine[1] ?? '');
    return write.apply(this, args);
  } as typeof write;
  try {
    await withEchoServer(2, async (client, origin) => {
      const held = client.request({ method: 'GET', url: new URL(`${origin}/held`), headers: {} });
      const now = client.request({ method: 'GET', url: new URL(`${origin}/now`), headers: {} }, true);
      expect(written).toEqual(['/now']);
      expect((await Promise.all([held, now])).map((answer) => answer.body.toString())).toEqual(['/held', '/now']);
      expect(written).toEqual(['/now', '/held']);
    });
  } finally {
    net.Socket.prototype.write = write;
  }
});

test('a tool inside the process sees each request as it is written, not made, may add to its bytes, and sees each complete response', async () => {
  const server = http.createServer((req, res) => {
    res.statusCode = 429;
    res.setHeader('retry-after', '1');
    res.end(String(req.headers['x-seen'] ?? 'none'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new HttpClient(new URL(`http://127.0.0.1:${port}`), { maxConnections: 1, timeoutMs: 1_000 });
  const statuses: number[] = [];
  const seen: string[] = [];
  const stamp = (made: unknown): void => {
    seen.push('written');
    const request = made as { bytes: Buffer };
    const end = request.bytes.indexOf('\r\n');
    request.bytes = Buffer.concat([request.bytes.subarray(0, end + 2), Buffer.from('x-seen: yes\r\n'), request.bytes.subarray(end + 2)]);
  };
  const answered = (message: unknown): void => {
    seen.push('answered');
    statuses.push((message as { response: { status: number } }).response.status);
  };
  diagnostics.subscribe('petstore:http-client:request', stamp);
  diagnostics.subscribe('petstore:http-client:response', answered);
  try {
    // Made together, on one connection: the second waits for it, and is written once the first is answered.
    const request = Buffer.from('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const responses = await Promise.all([client.send(request), client.send(request)]);
    expect(responses.map((response) => response.body.toString())).toEqual(['yes', 'yes']);
    expect(statuses).toEqual([429, 429]);
    expect(seen).toEqual(['written', 'answered', 'written', 'answered']);
  } finally {
    diagnostics.unsubscribe('petstore:http-client:request', stamp);
    diagnostics.unsubscribe('petstore:http-client:response', answered);
    client.close();
    server.close();
  }
});

test('connections opened ahead serve requests sent together at once, and one the server closed while idle is not a lost request', async () => {
  let connections = 0;
  let requests = 0;
  const server = http.createServer({ keepAliveTimeout: 100 }, (req, res) => {
    requests++;
    res.end(req.url);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new HttpClient(new URL(`http://127.0.0.1:${port}`), { maxConnections: 4, timeoutMs: 2_000 });
  const request = (path: string): Buffer => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  try {
    await client.open(6);
    expect(client.openConnections, 'no more than maxConnections').toBe(4);
    expect(requests, 'opening sends no request').toBe(0);
    const answers = await Promise.all([1, 2, 3, 4].map((n) => client.send(request(`/n${n}`))));
    expect(answers.map((answer) => answer.body.toString())).toEqual(['/n1', '/n2', '/n3', '/n4']);
    expect(connections, 'the requests went out on the connections opened ahead').toBe(4);

    const idle = new HttpClient(new URL(`http://127.0.0.1:${port}`), { maxConnections: 1, timeoutMs: 2_000 });
    try {
      await idle.open(1);
      // The server drops the idle connection after 100 ms, before any request went out on it.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await idle.send(request('/after-idle'))).body.toString()).toBe('/after-idle');
    } finally {
      idle.close();
    }
  } finally {
    client.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a request sent again after its kept-alive connection was reset unanswered says so: the server may have counted both', async () => {
  const server = await resetOnceServer('/reset-once');
  const client = new HttpClient(new URL(server.origin), { maxConnections: 1, timeoutMs: 2_000 });
  const request = (path: string): Buffer => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  try {
    const first = await client.send(request('/first'));
    expect(first.sentAgain).toBeUndefined();
    const again = await client.send(request('/reset-once'));
    expect(again.body.toString()).toBe('/reset-once');
    expect(server.seen.get('/reset-once'), 'the server received it twice').toBe(2);
    expect(again.sentAgain).toBe(true);
  } finally {
    client.close();
    server.close();
  }
});
