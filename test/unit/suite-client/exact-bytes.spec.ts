/**
 * Every body the suite means to send as written reaches the target byte for byte, through each transport:
 * Playwright's request context JSON-encodes a string body that does not parse as JSON, which once turned
 * CREATE-4's malformed bodies into valid JSON strings.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { stringifyLossless } from '../../../lib/lossless-json.ts';
import { Redactor } from '../../../lib/redact.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import { MALFORMED_BODIES, TRUNCATED_BODY } from '../../../specs/support/exact-bodies.ts';
import { playwrightTransport, socketTransport, type Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { newPet } from '../../../specs/support/pets.ts';

interface Received {
  /** Undefined when the request carried no body at all (no Content-Length, no chunks). */
  body: Buffer | undefined;
  contentType: string | undefined;
}

/** An echo server that keeps the raw bytes of each request's body. */
async function startEcho(): Promise<{ server: Server; baseUrl: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const framed = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
      received.push({ body: framed ? Buffer.concat(chunks) : undefined, contentType: request.headers['content-type'] });
      // A well-formed 400, so the client's contract checks find nothing to report but the bytes.
      const limits = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) };
      response.writeHead(400, { 'content-type': 'application/json', ...limits }).end('{"code":"echo","message":"echoed","status":400}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received };
}

function clientOver(transport: Transport, baseUrl: string): PetStoreClient {
  return new PetStoreClient({
    transport,
    baseUrl,
    authorization: 'Bearer demo-business-1',
    plan: undefined,
    judge: new RuleJudge(test.info(), 'CREATE-4', new Redactor(DEMO_KEYS)),
    politeness: 'measure',
    timeLeftMs: () => Number.POSITIVE_INFINITY,
  });
}

const EXACT: ReadonlyArray<readonly [string, string | undefined]> = [
  ...MALFORMED_BODIES,
  ['ERR-1’s truncated body', TRUNCATED_BODY],
  ['a NewPet with a categoryId above 2^53', stringifyLossless(newPet({ categoryId: 2n ** 63n - 1n }))],
];

for (const [name, make] of [
  ['Playwright’s request context', (request: Parameters<typeof playwrightTransport>[0]): Transport => playwrightTransport(request)],
  ['the shared keep-alive client', (_request: unknown, baseUrl: string): Transport => socketTransport(baseUrl, 2)],
] as const) {
  test(`${name} sends every body the suite means as written, byte for byte`, async ({ request }) => {
    const echo = await startEcho();
    try {
      const api = clientOver(make(request, echo.baseUrl), echo.baseUrl);
      for (const [, body] of EXACT) await api.createPetRaw({ body, contentType: body === undefined ? undefined : 'application/json' });
      expect(echo.received).toHaveLength(EXACT.length);
      EXACT.forEach(([what, body], index) => {
        const got = echo.received[index]!;
        const bytes = got.body === undefined || (body === undefined && got.body.length === 0) ? undefined : got.body.toString('utf8');
        expect(bytes, `${what}: the bytes received`).toBe(body);
        expect(got.contentType, `${what}: the Content-Type received`).toBe(body === undefined ? undefined : 'application/json');
      });
    } finally {
      echo.server.closeAllConnections();
      await new Promise((resolve) => echo.server.close(resolve));
    }
  });
}
