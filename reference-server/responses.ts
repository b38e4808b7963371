/**
 * How every answer is written: JSON with a Content-Length, the X-RateLimit-* headers of the caller's binding
 * window on every status, and errors as the spec's Error body {code, message, status}.
 */
import type { ServerResponse } from 'node:http';
import type { RateDecision } from './limiter.ts';

export type HeaderMap = Record<string, string>;

export interface Reply {
  status: number;
  /** JSON, as text or as bytes. */
  body: string | Buffer;
  headers?: HeaderMap;
  /** Close the connection after answering (a body too large to read to its end). */
  close?: boolean;
}

const ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
};

export function json(status: number, body: string | Buffer, headers?: HeaderMap): Reply {
  return { status, body, headers };
}

export function errorReply(status: number, message: string, headers?: HeaderMap, code = ERROR_CODES[status] ?? 'error'): Reply {
  return { status, body: JSON.stringify({ code, message, status }), headers };
}

export function rateLimitHeaders(decision: RateDecision): HeaderMap {
  const headers: HeaderMap = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.reset),
  };
  if (decision.retryAfter !== undefined) headers['Retry-After'] = String(decision.retryAfter);
  return headers;
}

export function tooManyRequests(decision: RateDecision): Reply {
  return decision.banned
    ? errorReply(429, `this client kept sending while refused and is banned; retry after ${decision.retryAfter} seconds`, undefined, 'banned')
    : errorReply(429, `rate limit of ${decision.limit} requests exceeded; retry after ${decision.retryAfter} seconds`);
}

/** Writes a reply with the headers every response carries, plus the operation's own. */
export function send(res: ServerResponse, reply: Reply, ...headerSets: HeaderMap[]): void {
  const length = typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.length;
  const headers: HeaderMap = { 'Content-Type': 'application/json', 'Content-Length': String(length) };
  for (const set of headerSets) Object.assign(headers, set);
  if (reply.headers) Object.assign(headers, reply.headers);
  if (reply.close) headers.Connection = 'close';
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
