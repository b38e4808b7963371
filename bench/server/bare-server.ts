/**
 * The peer the reference server is measured against: node:http answering every request with the same
 * status, headers and body (given in BARE_RESPONSE as JSON) and no logic at all.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const canned = JSON.parse(process.env.BARE_RESPONSE ?? '') as CannedResponse;
const body = Buffer.from(canned.body);

const server = createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
  res.writeHead(canned.status, canned.headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare node:http server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/v1\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
