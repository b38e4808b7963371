/**
 * A reverse proxy on 127.0.0.1 that forwards to an upstream base URL and lets a test change each exchange:
 * rewrite the request, answer on its own, delay, or change the response's status, headers or body.
 * Put in front of a correct server it makes a broken one (or a legitimate variant) without touching the
 * server's code, which is how the conformance suite, the load script and the replay harness are proven
 * to catch what they claim to catch.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyRequest {
  method: string;
  /** Path and query as sent by the client, e.g. /v1/pets?limit=5 (the proxy keeps the upstream's path prefix). */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface ProxyResponse {
  status: number;
  /** Header names in lower case; content-length is recomputed from the body. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A response that is none: the proxy resets the client's connection instead of answering (status 0, as a HAR
 * entry of a request that got no response). A request the proxy should never answer: return a promise that
 * never settles.
 */
export const RESET_CONNECTION: ProxyResponse = Object.freeze({ status: 0, headers: {}, body: '' });

export interface ExchangeTransform {
  /**
   * Sees every request before it goes upstream. Return a (changed) request to forward it, or a response
   * to answer without asking the upstream. May wait, to delay the exchange.
   */
  request?(request: ProxyRequest): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  /** Sees every upstream response (with the request as forwarded) and returns what the client gets. */
  response?(response: ProxyResponse, request: ProxyRequest): ProxyResponse | Promise<ProxyResponse>;
}

export interface FaultProxy {
  /** The proxy's base URL, with the upstream's path (e.g. http://127.0.0.1:41234/v1). */
  baseUrl: string;
  /** How many requests the proxy has received. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Headers that describe one hop of the connection, not the message, and so are never copied across. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

export function isProxyResponse(value: ProxyRequest | ProxyResponse): value is ProxyResponse {
  return 'status' in value;
}

export async function startFaultProxy(upstreamBaseUrl: string, transform: ExchangeTransform = {}): Promise<FaultProxy> {
  const upstream = new URL(upstreamBaseUrl);
  const agent = new http.Agent({ keepAlive: true });
  let requests = 0;

  const server = http.createServer((incoming, outgoing) => {
    requests++;
    void handle(incoming).then(
      (response) => {
        if (response.status === RESET_CONNECTION.status) {
          incoming.socket.resetAndDestroy();
          return;
        }
        outgoing.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) });
        outgoing.end(response.body);
      },
      (error: unknown) => {
        // A fault proxy that hides its own bugs would make a test pass or fail for the wrong reason: say so loudly.
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`fault proxy: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  });

  async function handle(incoming: http.IncomingMessage): Promise<ProxyResponse> {
    const received: ProxyRequest = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: flattenHeaders(incoming.headers),
      body: await readBody(incoming),
    };
    const decided = transform.request ? await transform.request(received) : received;
    if (isProxyResponse(decided)) return decided;
    const answered = await forward(decided);
    return transform.response ? transform.response(answered, decided) : answered;
  }

  function forward(request: ProxyRequest, retried = false): Promise<ProxyResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...withoutHopByHop(request.headers), host: upstream.host };
      if (request.body.length > 0 || request.method === 'POST') headers['content-length'] = String(Buffer.byteLength(request.body));
      const upstreamRequest = http.request(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.path, headers, agent },
        (response) => {
          readBody(response).then(
            (body) => resolve({ status: response.statusCode ?? 502, headers: withoutHopByHop(flattenHeaders(response.headers)), body }),
            reject,
          );
        },
      );
      upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the upstream closed just as it was reused: the request never arrived (Node's documented race).
        if (upstreamRequest.reusedSocket && error.code === 'ECONNRESET' && !retried) forward(request, true).then(resolve, reject);
        else reject(error);
      });
      upstreamRequest.end(request.body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const basePath = upstream.pathname.replace(/\/+$/, '');

  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function withoutHopByHop(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}
