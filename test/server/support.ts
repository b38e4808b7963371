/** Helpers for the reference server's black-box tests: start one in-process, call it, read raw HTTP. */
import { connect } from 'node:net';
import { operation as operationById, type OperationId } from '../../lib/contract.ts';
import { checkResponse } from '../../lib/response-checks.ts';
import type { PlanId } from '../../lib/plans.ts';
import type { ServerConfig } from '../../reference-server/config.ts';
import { createReferenceServer, type RunningServer, type ServerDeps } from '../../reference-server/server.ts';

export interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

export interface CallOptions {
  method?: string;
  /** A key sent as `Authorization: Bearer <key>`. */
  key?: string;
  headers?: Record<string, string>;
  body?: string;
}

export class TestServer {
  private constructor(readonly running: RunningServer) {}

  static async start(settings: Partial<ServerConfig> = {}, deps: ServerDeps = {}): Promise<TestServer> {
    return new TestServer(await createReferenceServer(settings, deps));
  }

  get baseUrl(): string {
    return this.running.baseUrl;
  }

  get port(): number {
    return Number(new URL(this.baseUrl).port);
  }

  async call(path: string, { method = 'GET', key, headers = {}, body }: CallOptions = {}): Promise<Answer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), body: text, json: parseJson(text) };
  }

  close(): Promise<void> {
    return this.running.close();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Contract problems of an answer to an operation, by the same check the suite and replay use. */
export function contractProblems(operation: OperationId, answer: Answer, options: { plan?: PlanId; now?: number } = {}): string[] {
  return checkResponse({ operation: operationById(operation), status: answer.status, headers: answer.headers, body: answer.body, ...options }).map(
    (violation) => `${violation.rule}: ${violation.message}`,
  );
}

/**
 * Sends bytes as they are (no client library between, so anything can be malformed) and reads one response.
 * Resolves with the status, headers and body, or `closed` when the server closed without answering.
 */
export function rawExchange(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<Answer | 'closed'> {
  // A response to HEAD has the headers of the body it does not send.
  const bodiless = (typeof request === 'string' ? request : request.toString('latin1', 0, 5)).startsWith('HEAD ');
  const parseRaw = (bytes: Buffer): Answer | undefined => parseRawResponse(bytes, bodiless);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(request.toString().slice(0, 120))}`));
    }, timeoutMs);
    const done = (result: Answer | 'closed'): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    socket.on('error', () => done(parseRaw(received) ?? 'closed'));
    socket.on('close', () => done(parseRaw(received) ?? 'closed'));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseRaw(received);
      if (answer) done(answer);
    });
    socket.write(request);
  });
}

function parseRawResponse(bytes: Buffer, bodiless: boolean): Answer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = bodiless ? 0 : Number(headers['content-length'] ?? 0);
  if (bytes.length < end + 4 + length) return undefined;
  const body = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
  return { status: Number(statusLine.split(' ')[1]), headers, body, json: parseJson(body) };
}
