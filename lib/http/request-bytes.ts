/**
 * The bytes of one HTTP/1.1 request, for the keep-alive client that writes them as they are. Header names
 * and values are checked here because nothing after this point would: a CR or LF in a value read from a
 * recording or a setting would otherwise split the request on the wire.
 */
export interface PlainRequest {
  method: string;
  /** Absolute URL; the client refuses one whose origin is not its own. */
  url: URL;
  /** A record, or name/value pairs when order, case and repeats matter (a proxy forwarding as received). */
  headers: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;
  body?: Buffer | string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Set from the request itself: a caller's copy would contradict it. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

export class RequestShapeError extends Error {
  override name = 'RequestShapeError';
}

/** Either form of a request's headers as name/value pairs. */
export function headerPairs(headers: PlainRequest['headers']): ReadonlyArray<readonly [string, string]> {
  // Array.isArray does not narrow a readonly array out of a union.
  return Array.isArray(headers) ? (headers as ReadonlyArray<readonly [string, string]>) : Object.entries(headers);
}

export function encodeRequest(request: PlainRequest): Buffer {
  if (!TOKEN.test(request.method)) throw new RequestShapeError(`not an HTTP method: ${JSON.stringify(request.method)}`);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  let head = `${request.method} ${request.url.pathname}${request.url.search} HTTP/1.1\r\nHost: ${request.url.host}\r\n`;
  for (const [name, value] of headerPairs(request.headers)) {
    if (!TOKEN.test(name)) throw new RequestShapeError(`not a header name: ${JSON.stringify(name)}`);
    if (!FIELD_VALUE.test(value)) throw new RequestShapeError(`header ${name} holds a character a header cannot carry`);
    if (FRAMING.has(name.toLowerCase())) continue;
    head += `${name}: ${value}\r\n`;
  }
  if (body !== undefined) head += `Content-Length: ${body.length}\r\n`;
  head += '\r\n';
  const headBytes = Buffer.from(head, 'latin1');
  return body === undefined || body.length === 0 ? headBytes : Buffer.concat([headBytes, body]);
}
