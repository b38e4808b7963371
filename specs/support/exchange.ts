/**
 * One request and its response, as the suite keeps them: enough to check the response against the contract,
 * to judge a rule, and to write evidence a reviewer can replay with curl.
 */
import type { APIRequestContext } from '@playwright/test';
import { HttpClient } from '../../lib/http/client.ts';
import type { Classification, OperationId } from '../../lib/contract.ts';
import type { LosslessValue } from '../../lib/lossless-json.ts';
import type { PlanId } from '../../lib/plans.ts';
import type { Violation } from '../../lib/response-checks.ts';
import { DEFAULT_ANSWER_TIMEOUT_SECONDS } from './settings.ts';
import { sendFailure, Unanswered } from './unanswered.ts';

export type Method = 'GET' | 'POST';

export interface SentRequest {
  method: Method;
  url: string;
  /** Only the headers the suite set itself (the transport may add its own, such as User-Agent). */
  headers: Record<string, string>;
  body?: string;
}

export interface ReceivedResponse {
  status: number;
  /** Names in lower case. */
  headers: Record<string, string>;
  body: string;
  /**
   * Sent a second time by the shared client, its first connection closed before any answer (HttpResponse.sentAgain):
   * the target may have counted it twice.
   */
  sentAgain?: true;
}

export interface Exchange {
  operation: OperationId;
  request: SentRequest;
  response: ReceivedResponse;
  /** The body parsed losslessly; undefined when empty or not JSON. */
  json: LosslessValue | undefined;
  /** The plan of the key sent, when it is a key the target was configured with. */
  plan: PlanId | undefined;
  /** Milliseconds since the epoch on the target's clock (lib/target-clock.ts): what its Reset is compared with. */
  sentAt: number;
  receivedAt: number;
  /** Within the contract, outside it or at a gap (lib/contract.ts): how the answer was judged. */
  kind: Classification;
  /** What the contract check found, when the client was asked to leave it for later (`collecting`). */
  violations?: Violation[];
}

/** How a request goes over the wire. Redirects are never followed: a redirect must not carry a key elsewhere. */
export interface Transport {
  send(request: SentRequest): Promise<ReceivedResponse>;
}

/** How long a request waits for its answer by default (PETSTORE_ANSWER_TIMEOUT_SECONDS sets the run's). */
const DEFAULT_ANSWER_TIMEOUT_MS = DEFAULT_ANSWER_TIMEOUT_SECONDS * 1000;

/**
 * A kept-alive connection idle this long may have been closed by the server just as it was reused (Node's
 * documented race): its request never arrived, so it is sent once more before it counts as unanswered. Servers
 * keep idle connections seconds or more (Node 5 s, nginx 75 s); after a shorter idle time the connection in use
 * was one the server had just answered on, and a close is the server's doing.
 */
const KEPT_ALIVE_IDLE_MS = 1_000;

/**
 * Playwright's `request` fixture: its calls appear as steps in Playwright's HTML report. A request that gets no
 * answer rejects with Unanswered (unanswered.ts).
 */
export function playwrightTransport(context: APIRequestContext, timeoutMs: number = DEFAULT_ANSWER_TIMEOUT_MS): Transport {
  let lastSettledAt: number | undefined;
  let inFlight = 0;
  const fetchOnce = async (request: SentRequest) => {
    try {
      return await context.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        // A string `data` with a JSON Content-Type is JSON-encoded when it does not parse: a Buffer goes out as written.
        ...(request.body !== undefined ? { data: Buffer.from(request.body, 'utf8') } : {}),
        maxRedirects: 0,
        failOnStatusCode: false,
        timeout: timeoutMs,
      });
    } catch (error) {
      // Playwright's message ends in a call log that lists every request header, the key included.
      throw sendFailure(request, (error instanceof Error ? error.message : String(error)).split('\n')[0]!);
    }
  };
  return {
    async send(request) {
      const idle = inFlight === 0 && lastSettledAt !== undefined && performance.now() - lastSettledAt >= KEPT_ALIVE_IDLE_MS;
      inFlight++;
      let response;
      try {
        response = await fetchOnce(request).catch((error: unknown) => {
          if (idle && error instanceof Unanswered && error.how === 'connection closed') return fetchOnce(request);
          throw error;
        });
      } finally {
        inFlight--;
        lastSettledAt = performance.now();
      }
      try {
        return { status: response.status(), headers: response.headers(), body: await response.text() };
      } finally {
        await response.dispose();
      }
    },
  };
}

/**
 * The shared keep-alive client (lib/http/client.ts), for the bursts that measure a rate limit: a Business
 * plan's 1,000 requests must fit a minute window shortened to a fraction of a second, which Playwright's
 * request context (about 480 requests/s here) and Node's fetch (about 4,500) cannot hold; see
 * bench/suite for the figures. Its connections stay open until `close`.
 */
export function socketTransport(baseUrl: string, connections: number, timeoutMs: number = DEFAULT_ANSWER_TIMEOUT_MS): Transport & { open(): Promise<void>; close(): void } {
  const client = new HttpClient(new URL(baseUrl), { maxConnections: connections, timeoutMs });
  return {
    async send(request) {
      let response;
      try {
        response = await client.request({
          method: request.method,
          url: new URL(request.url),
          headers: request.headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
      } catch (error) {
        // The shared client sends a request once more itself when a kept-alive connection was closed as it was reused.
        throw sendFailure(request, error instanceof Error ? error.message : String(error));
      }
      return { status: response.status, headers: response.headers, body: response.body.toString('utf8'), ...(response.sentAgain ? { sentAgain: true } : {}) };
    },
    /** Opens every connection ahead of the requests (a TCP handshake each, no request). */
    open: () => client.open(connections),
    close: () => client.close(),
  };
}
