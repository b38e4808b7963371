/**
 * One proxied exchange as a HAR 1.2 entry, with every secret already replaced: the caller passes the
 * functions that scrub text and a header's value, and the placeholder form of the Authorization header.
 */
import type { HarContent, HarEntry, HarNameValue } from '../../lib/capture/types.ts';

export interface CapturedExchange {
  started: Date;
  /** Milliseconds until the response's headers arrived. */
  waitMs: number;
  /** Milliseconds until the response's body had arrived. */
  totalMs: number;
  method: string;
  /** Absolute URL on the upstream. */
  url: URL;
  /** As forwarded, in their original case and order. */
  requestHeaders: Array<[string, string]>;
  requestBody: Buffer;
  status: number;
  statusText: string;
  httpVersion: string;
  responseHeaders: Array<[string, string]>;
  responseBody: Buffer;
}

export function harEntry(exchange: CapturedExchange, scrub: (text: string) => string, scrubHeader: (name: string, value: string) => string, authorization: string | undefined): HarEntry {
  const headerList = (headers: Array<[string, string]>): HarNameValue[] =>
    headers.map(([name, value]) => ({
      name,
      value: name.toLowerCase() === 'authorization' && authorization !== undefined ? authorization : scrubHeader(name, value),
    }));
  const url = new URL(scrub(exchange.url.href));
  const requestType = headerValue(exchange.requestHeaders, 'content-type');
  const hasBody = exchange.requestBody.length > 0;
  return {
    startedDateTime: exchange.started.toISOString(),
    time: round(exchange.totalMs),
    request: {
      method: exchange.method,
      url: url.href,
      httpVersion: `HTTP/${exchange.httpVersion}`,
      cookies: [],
      headers: headerList(exchange.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(hasBody ? { postData: { mimeType: requestType ?? 'application/octet-stream', text: scrub(exchange.requestBody.toString('utf8')) } } : {}),
      headersSize: -1,
      bodySize: exchange.requestBody.length,
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText,
      httpVersion: `HTTP/${exchange.httpVersion}`,
      cookies: [],
      headers: headerList(exchange.responseHeaders),
      content: content(exchange.responseBody, headerValue(exchange.responseHeaders, 'content-type'), scrub),
      redirectURL: scrub(headerValue(exchange.responseHeaders, 'location') ?? ''),
      headersSize: -1,
      bodySize: exchange.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: round(exchange.waitMs), receive: round(exchange.totalMs - exchange.waitMs) },
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function content(body: Buffer, mimeType: string | undefined, scrub: (text: string) => string): HarContent {
  const base: HarContent = { size: body.length, mimeType: mimeType ?? 'x-unknown' };
  if (body.length === 0) return { ...base, text: '' };
  try {
    return { ...base, text: scrub(strictUtf8.decode(body)) };
  } catch {
    return { ...base, text: body.toString('base64'), encoding: 'base64' };
  }
}

function headerValue(headers: Array<[string, string]>, name: string): string | undefined {
  return headers.find(([header]) => header.toLowerCase() === name)?.[1];
}

function round(ms: number): number {
  return Math.round(Math.max(0, ms) * 1000) / 1000;
}
