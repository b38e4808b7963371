/**
 * An HTTP/1.1 response parser for one keep-alive connection: status, headers (names in lower case) and a
 * body framed by Content-Length, chunked transfer coding or the end of the connection. It is small because
 * the shared client (client.ts) sends one request at a time per connection and reads only what its users need.
 */
export interface HttpResponse {
  status: number;
  /** The reason phrase as sent ("Too Many Requests"), possibly empty. */
  statusText: string;
  httpVersion: '1.0' | '1.1';
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Every header line as sent, names in their own case and order: what a recording keeps. */
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  /** False when the server said Connection: close (or spoke HTTP/1.0 without keep-alive). */
  keepAlive: boolean;
  /**
   * Set by HttpClient on the answer to a request it wrote a second time, its first connection having died with no
   * byte of an answer: the server may have received the first too (a reset after it took the request), and counted it.
   */
  sentAgain?: true;
}

export class HttpProtocolError extends Error {
  override name = 'HttpProtocolError';
}

interface Head extends Omit<HttpResponse, 'body'> {
  framing: { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };
  bodyStart: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const NO_BYTES = Buffer.alloc(0);
const MAX_HEAD_BYTES = 64 * 1024;
/** No answer of this interface comes near it; a target that sends more is not buffered without end. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class ResponseParser {
  private buffer: Buffer = NO_BYTES;
  private head: Head | undefined;

  /** Feeds bytes; returns the response once complete. Bytes past the response are a protocol error. */
  push(chunk: Buffer): HttpResponse | undefined {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.head) {
        const end = this.buffer.indexOf(HEAD_END);
        if (end === -1) {
          if (this.buffer.length > MAX_HEAD_BYTES) throw new HttpProtocolError('response headers larger than 64 KiB');
          return undefined;
        }
        this.head = parseHead(this.buffer.toString('latin1', 0, end), end + 4);
        // An informational response (100 Continue) precedes the real one.
        if (this.head.status < 200) {
          this.buffer = this.buffer.subarray(this.head.bodyStart);
          this.head = undefined;
          continue;
        }
      }
      return this.body(this.head);
    }
  }

  /** The connection ended: completes a response framed by the end of the connection. */
  end(): HttpResponse | undefined {
    if (this.head?.framing.kind !== 'close') return undefined;
    return this.finish(this.head, this.buffer.subarray(this.head.bodyStart));
  }

  private body(head: Head): HttpResponse | undefined {
    const { framing, bodyStart } = head;
    // Chunk framing adds a little to a body; a chunked or close-framed body far past the bound is refused as it grows.
    if (this.buffer.length - bodyStart > MAX_BODY_BYTES + MAX_HEAD_BYTES) throw new HttpProtocolError(`a body of more than ${MAX_BODY_BYTES} bytes`);
    if (framing.kind === 'length') {
      const end = bodyStart + framing.length;
      if (this.buffer.length < end) return undefined;
      if (this.buffer.length > end) throw new HttpProtocolError('bytes after the response on a connection with one request in flight');
      return this.finish(head, this.buffer.subarray(bodyStart, end));
    }
    if (framing.kind === 'chunked') {
      const decoded = decodeChunked(this.buffer, bodyStart);
      return decoded === undefined ? undefined : this.finish(head, decoded);
    }
    return undefined;
  }

  private finish(head: Head, body: Buffer): HttpResponse {
    this.head = undefined;
    this.buffer = NO_BYTES;
    // Named field by field: a rest-and-spread copy cost about half a microsecond a response.
    const { status, statusText, httpVersion, headers, rawHeaders, keepAlive } = head;
    return { status, statusText, httpVersion, headers, rawHeaders, body, keepAlive };
  }
}

function parseHead(text: string, bodyStart: number): Head {
  const lines = text.split('\r\n');
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
  if (!statusLine) throw new HttpProtocolError(`not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`);
  const headers: Record<string, string> = {};
  const rawHeaders: Array<[string, string]> = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const rawName = line.slice(0, colon).trim();
    const name = rawName.toLowerCase();
    const value = line.slice(colon + 1).trim();
    rawHeaders.push([rawName, value]);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const status = Number(statusLine[2]);
  const connection = headers.connection?.toLowerCase() ?? '';
  const keepAlive = statusLine[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  const noBody = status === 204 || status === 304 || status < 200;
  let framing: Head['framing'];
  if (noBody) framing = { kind: 'length', length: 0 };
  else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) framing = { kind: 'chunked' };
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (!Number.isSafeInteger(length) || length < 0) throw new HttpProtocolError(`bad Content-Length ${headers['content-length']}`);
    if (length > MAX_BODY_BYTES) throw new HttpProtocolError(`a body of ${length} bytes, more than the ${MAX_BODY_BYTES} this client reads`);
    framing = { kind: 'length', length };
  } else framing = { kind: 'close' };
  const httpVersion = statusLine[1] === '1' ? '1.1' : '1.0';
  return { status, statusText: statusLine[3] ?? '', httpVersion, headers, rawHeaders, keepAlive: keepAlive && framing.kind !== 'close', framing, bodyStart };
}

/** The body of a complete chunked message starting at `start`, or undefined while bytes are missing. */
function decodeChunked(buffer: Buffer, start: number): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size < 0) throw new HttpProtocolError('bad chunk size');
    at = lineEnd + 2;
    if (size === 0) {
      // Trailers, if any, end with an empty line.
      const trailersEnd = buffer.indexOf('\r\n\r\n', at - 2, 'latin1');
      if (trailersEnd === -1) return undefined;
      return Buffer.concat(parts);
    }
    if (buffer.length < at + size + 2) return undefined;
    parts.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}
