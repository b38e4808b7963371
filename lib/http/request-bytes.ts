/**
 * The bytes of one HTTP/1.1 request, for the keep-alive client that writes them as they are. Header names
 * and values are checked here because nothing after this point would: a CR or LF in a value read from a
 * recording or a setting would otherwise split the request on the wire.
 */
export interface PlainRequest {
  method: string;
  /**
   * An absolute URL, which the client refuses when its origin is not the client's own; or the path and query
   * alone ("/v1/pets?limit=5"), sent to the client's origin: replay sends one per exchange, and a URL
   * parsed for each would cost it about a microsecond.
   */
  url: URL | string;
  /** A record, or name/value pairs when order, case and repeats matter (a proxy forwarding as received). */
  headers: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;
  body?: Buffer | string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A request-target in origin form: a path and query of visible ASCII (no space, CR or LF to split the request line). */
const ORIGIN_FORM = /^\/[\x21-\x7e]*$/;
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

/** `origin`: where a request given by path alone goes. */
export function encodeRequest(request: PlainRequest, origin?: URL): Buffer {
  if (!TOKEN.test(request.method)) throw new RequestShapeError(`not an HTTP method: ${JSON.stringify(request.method)}`);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  const [target, host] = targetAndHost(request.url, origin);
  let head = `${request.method} ${target} HTTP/1.1\r\nHost: ${host}\r\n`;
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

/** The request line's target and the Host it goes to. */
function targetAndHost(url: URL | string, origin: URL | undefined): [string, string] {
  if (typeof url !== 'string') return [`${url.pathname}${url.search}`, url.host];
  if (!ORIGIN_FORM.test(url)) throw new RequestShapeError(`not a path and query: ${JSON.stringify(url.slice(0, 80))}`);
  if (origin === undefined) throw new RequestShapeError(`a request given by its path (${url.slice(0, 80)}) needs the origin it goes to`);
  return [url, origin.host];
}
