/**
 * The order in which every request is judged: who is calling (auth), whether they may call now (limiter),
 * then which operation they address and what it answers. Every operation is secured, so an unknown route
 * or a wrong method is only revealed to an authenticated caller, and counts against their quota like any
 * other request.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { allowedMethods, matchOperation, type MatchedOperation } from '../lib/contract.ts';
import { Authenticator, BEARER_CHALLENGE } from './auth.ts';
import type { ServerConfig } from './config.ts';
import type { PlanId, Quota } from '../lib/plans.ts';
import type { RateLimiter } from './limiter.ts';
import type { RequestLog } from './log.ts';
import { markerHeaders } from './markers.ts';
import { errorReply, rateLimitHeaders, send, tooManyRequests, type HeaderMap, type Reply } from './responses.ts';
import { BASE_PATH, routes } from './routes.ts';
import type { PetStore } from './store.ts';

export interface HandlerDeps {
  store: PetStore;
  limiter: RateLimiter;
  log: RequestLog;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock: () => number;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

interface RequestLine {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The path below the base path /v1, or undefined when the request is not under it. */
  below: string | undefined;
  search: string;
}

function requestLine(req: IncomingMessage): RequestLine {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : url.slice(queryAt + 1);
  const below = path.startsWith(`${BASE_PATH}/`) ? path.slice(BASE_PATH.length) : undefined;
  return { method, path, below, search };
}

/** One request on its way through the pipeline: what its response and its log line need. */
interface Exchange {
  res: ServerResponse;
  method: string;
  path: string;
  plan: PlanId | 'anonymous';
  started: number;
  headers: HeaderMap;
  markers: HeaderMap;
}

export function createRequestHandler(config: ServerConfig, deps: HandlerDeps): RequestHandler {
  const { store, limiter, log, clock } = deps;
  const authenticator = new Authenticator(config.keys);
  const anonymousQuota = anonymousQuotaOf(config);
  const context = { store, config };

  // Defined once, not per request: the hot path allocates no closures.
  function respond(exchange: Exchange, reply: Reply): void {
    send(exchange.res, reply, exchange.headers, exchange.markers);
    log.record({ method: exchange.method, path: exchange.path, status: reply.status, plan: exchange.plan, durationMs: performance.now() - exchange.started });
  }

  /** What an authenticated, admitted request gets: its operation's answer, or why there is none. */
  function answer(request: RequestLine, match: MatchedOperation | undefined, req: IncomingMessage, now: number): Reply | Promise<Reply> {
    const { method, path, below, search } = request;
    if (!match) {
      const allowed = below === undefined ? [] : allowedMethods(below);
      if (allowed.length > 0) return errorReply(405, `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { Allow: allowed.join(', ') });
      return errorReply(404, `no operation answers ${method} ${path}; the operations are under ${BASE_PATH}: GET /pets, POST /pets, GET /pets/{petId}, GET /store/orders`);
    }
    return routes[match.operation.id]({ req, search, pathParams: match.pathParams, now }, context);
  }

  return (req, res) => {
    const started = performance.now();
    const now = clock();
    const request = requestLine(req);
    const match = request.below === undefined ? undefined : matchOperation(request.method, request.below);

    const authentication = authenticator.authenticateOn(req.socket, req.headers.authorization);
    const caller = 'caller' in authentication ? authentication.caller : undefined;
    const decision = caller
      ? limiter.take(caller.subject, config.quotas[caller.plan], now)
      : limiter.take(anonymousSubject(req.socket), anonymousQuota, now);
    const exchange: Exchange = {
      res,
      method: request.method,
      path: request.path,
      plan: caller?.plan ?? 'anonymous',
      started,
      headers: rateLimitHeaders(decision),
      markers: markerHeaders(match?.operation.id),
    };

    if (!decision.admitted) return respond(exchange, tooManyRequests(decision));
    if ('problem' in authentication) return respond(exchange, errorReply(401, authentication.problem, { 'WWW-Authenticate': BEARER_CHALLENGE }));
    let reply: Reply | Promise<Reply>;
    try {
      reply = answer(request, match, req, now);
    } catch (error) {
      reply = internalError(error);
    }
    if (reply instanceof Promise) {
      reply.then(
        (settled) => respond(exchange, settled),
        (error: unknown) => respond(exchange, internalError(error)),
      );
    } else respond(exchange, reply);
  };
}

/** A bug, not a client's fault: answered without a stack trace, which goes to stderr instead. */
function internalError(error: unknown): Reply {
  process.stderr.write(`petstore-conformance serve: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return errorReply(500, 'the server failed to answer this request; the failure has been logged');
}

/** Requests without a valid key are counted per client address, with no daily cap beyond the minute's. */
function anonymousQuotaOf(config: ServerConfig): Quota {
  return { perMinute: config.anonymousPerMinute, perDay: config.anonymousPerMinute * 1440 };
}

function anonymousSubject(socket: Socket): string {
  return `address ${socket.remoteAddress ?? 'unknown'}`;
}

/**
 * A request Node cannot parse (a broken request line, headers too large) never reaches the request handler;
 * it is still answered with an Error body and the X-RateLimit-* headers of the client's address, never a
 * bare reset. The connection is closed after it, as nothing more on it can be trusted.
 */
export function createMalformedRequestHandler(config: ServerConfig, deps: HandlerDeps): (error: Error & { code?: string }, socket: Socket) => void {
  const anonymousQuota = anonymousQuotaOf(config);
  return (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const decision = deps.limiter.take(anonymousSubject(socket), anonymousQuota, deps.clock());
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431 ? 'the request headers are too large' : status === 408 ? 'the request took too long to arrive' : 'the request is not valid HTTP/1.1';
    const reply = decision.admitted ? errorReply(status, message) : tooManyRequests(decision);
    const headers: HeaderMap = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(reply.body)), ...rateLimitHeaders(decision), Connection: 'close' };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${head}\r\n${reply.body}`);
    deps.log.record({ method: '-', path: '-', status: reply.status, plan: 'anonymous', durationMs: 0 });
  };
}
