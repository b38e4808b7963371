/**
 * The replayer's HTTP client: node:http with kept-alive connections (one per concurrent exchange), no
 * redirect ever followed (a redirect is an answer to compare, and following it could carry a key away),
 * bodies read whole as text.
 */
import http from 'node:http';
import https from 'node:https';

export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ReceivedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Milliseconds since the epoch when the body had arrived. */
  receivedAt: number;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
}

const REQUEST_TIMEOUT_MS = 30_000;

export class HttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(connections: number) {
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: connections });
  }

  send(request: OutgoingRequest): Promise<ReceivedResponse> {
    const started = performance.now();
    const isHttps = request.url.protocol === 'https:';
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    return new Promise((resolve, reject) => {
      const outgoing = (isHttps ? https : http).request(
        request.url,
        { method: request.method, headers, agent: isHttps ? this.httpsAgent : this.httpAgent, timeout: REQUEST_TIMEOUT_MS },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            resolve({
              status: response.statusCode ?? 0,
              headers: flatten(response.headers),
              body: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
              receivedAt: Date.now(),
              ms: performance.now() - started,
            });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** A transport failure in words a reader understands. */
export function describeTransportError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset by the target';
  if (code === 'EPIPE') return 'connection closed by the target';
  return error instanceof Error ? error.message : String(error);
}
