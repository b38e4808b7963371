/**
 * The recording reverse proxy: clients talk to it as if it were the upstream; it forwards each request,
 * hands the upstream's answer back unchanged, and writes the exchange, secrets replaced, to the capture.
 * It never follows a redirect itself, so a key is never carried to wherever an upstream points.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../../lib/http/client.ts';
import { Redactor } from '../../lib/redact.ts';
import type { KeysByPlan } from '../../lib/keys.ts';
import { splitAuthorization } from '../../lib/capture/credentials.ts';
import type { HarEntry } from '../../lib/capture/types.ts';
import type { CaptureWriter } from '../../lib/capture/write.ts';
import { CredentialNamer } from './credentials.ts';
import { harEntry, type CapturedExchange } from './har-entry.ts';

export interface RecordingProxyOptions {
  /** The upstream's base URL, e.g. http://127.0.0.1:8080/v1. */
  upstream: string;
  /** 0 for a free port. */
  port: number;
  writer: CaptureWriter;
  /** Keys to recognise by plan and to keep out of the capture. */
  keys: Readonly<KeysByPlan>;
  /** After each exchange is written: `entry` as written, keys replaced by placeholders. */
  onExchange?(exchange: { method: string; path: string; status: number; entry: HarEntry }): void;
  onWarning?(message: string): void;
}

export interface RecordingProxy {
  /** Where clients point instead of the upstream: http://127.0.0.1:<port> plus the upstream's base path. */
  baseUrl: string;
  /** Stops accepting, lets exchanges in flight finish (they are recorded), then resolves. */
  close(): Promise<void>;
}

/** Describe one hop, not the message; never copied across. Accept-Encoding is dropped so bodies are recorded readable. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'host',
  'accept-encoding',
]);
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const UPSTREAM_CONNECTIONS = 64;
const MIN_SCRUBBED_TOKEN = 6;
const UPSTREAM_TIMEOUT_MS = 60_000;
const CLOSE_GRACE_MS = 5_000;

export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = new URL(options.upstream);
  const client = new HttpClient(upstream, { maxConnections: UPSTREAM_CONNECTIONS, timeoutMs: UPSTREAM_TIMEOUT_MS });
  const redactor = new Redactor(options.keys);
  const namer = new CredentialNamer(options.keys);
  const warned = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let proxyOrigin = '';

  const server = http.createServer((incoming, outgoing) => {
    const done = handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) {
        outgoing.writeHead(502, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ code: 'bad_gateway', message: `recorder: the upstream did not answer (${describe(error)})`, status: 502 }));
      } else outgoing.destroy();
      options.onWarning?.(`${incoming.method} ${redactor.text(incoming.url ?? '')}: not recorded, the upstream did not answer (${describe(error)})`);
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });

  async function handle(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
    const started = new Date();
    const startedAt = performance.now();
    const requestBody = await readBody(incoming);
    const method = incoming.method ?? 'GET';
    const target = new URL(incoming.url ?? '/', upstream.origin);
    const requestHeaders = forwardedHeaders(incoming.rawHeaders);
    requestHeaders.push(['Host', upstream.host]);
    const hasBody = requestBody.length > 0 || method === 'POST' || method === 'PUT' || method === 'PATCH';
    // Recorded as sent; the client writes Host and Content-Length from the request itself.
    if (hasBody) requestHeaders.push(['Content-Length', String(requestBody.length)]);

    const response = await client.request({ method, url: target, headers: requestHeaders, ...(hasBody ? { body: requestBody } : {}) });
    // The shared client hands over the whole answer at once: the wait and the total are the same span.
    const totalMs = performance.now() - startedAt;
    const waitMs = totalMs;
    const responseBody = response.body;

    const responseHeaders = response.rawHeaders.filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase()));
    // The client gets redirects within the upstream pointed at the proxy; the capture keeps what the upstream said.
    const toClient = responseHeaders.map(([name, value]): [string, string] => [name, name.toLowerCase() === 'location' ? towardsProxy(value, upstream, proxyOrigin) : value]);
    outgoing.writeHead(response.status, response.statusText, [...toClient, ['Content-Length', String(responseBody.length)]].flat());
    outgoing.end(responseBody);

    const status = response.status;
    const exchange: CapturedExchange = {
      started,
      waitMs,
      totalMs,
      method,
      url: target,
      requestHeaders,
      requestBody,
      status,
      statusText: response.statusText,
      httpVersion: response.httpVersion,
      responseHeaders,
      responseBody,
    };
    const lowerHeaders = Object.fromEntries(responseHeaders.map(([name, value]) => [name.toLowerCase(), value]));
    // A credential the request carries by position (?x-api-key=, a cookie, a JSON "apiKey") is kept out wherever the answer echoes it.
    redactor.learnCarried({ url: target.href, headers: Object.fromEntries(requestHeaders), body: requestBody.toString('utf8') });
    const authorization = incoming.headers.authorization;
    let scrub = (text: string): string => redactor.text(text);
    let authorizationText: string | undefined;
    if (authorization !== undefined) {
      const { scheme, token } = splitAuthorization(authorization);
      if (token) {
        const naming = namer.name(token, { status, headers: lowerHeaders });
        if (naming.warning && !warned.has(naming.warning)) {
          warned.add(naming.warning);
          options.onWarning?.(naming.warning);
        }
        // Too short a token would garble the capture if replaced everywhere; it is still kept out of the header.
        if (token.length >= MIN_SCRUBBED_TOKEN) scrub = (text: string): string => redactor.text(text.split(token).join(naming.placeholder));
        authorizationText = scheme ? `${scheme} ${naming.placeholder}` : naming.placeholder;
      }
    }
    const entry = harEntry(exchange, scrub, (name, value) => redactor.member(name, scrub(value)), authorizationText);
    options.writer.write(entry);
    options.onExchange?.({ method, path: scrub(target.pathname + target.search), status, entry });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  proxyOrigin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${proxyOrigin}${upstream.pathname.replace(/\/+$/, '')}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([Promise.all([...inFlight]), grace]);
      server.closeAllConnections();
      await closed;
      client.close();
    },
  };
}

function forwardedHeaders(raw: string[]): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!NOT_FORWARDED.has(name.toLowerCase())) headers.push([name, raw[i + 1] ?? '']);
  }
  return headers;
}

/**
 * An absolute redirect to the upstream is pointed back at the proxy, so the client stays recorded; relative
 * ones already resolve against the proxy, and redirects elsewhere are passed on, never followed.
 */
function towardsProxy(location: string, upstream: URL, proxyOrigin: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(location)) return location;
  try {
    const resolved = new URL(location);
    return resolved.origin === upstream.origin ? `${proxyOrigin}${resolved.pathname}${resolved.search}${resolved.hash}` : location;
  } catch {
    return location;
  }
}

function readBody(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) stream.destroy(new Error(`body larger than ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return error instanceof Error ? error.message : String(error);
}
