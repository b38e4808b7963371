/**
 * The one HTTP client of the load script, the replay harness and the suite's measuring bursts: a pool of
 * keep-alive connections over raw sockets to one origin, one request in flight per connection. node:http's
 * client costs more per request than the server it measures (objects, header validation, streams), which
 * would make the client, not the target, the bottleneck; this one writes request bytes as given and parses
 * only framing and headers (see bench/load for the comparison with undici). It never follows a redirect (a
 * redirect is an answer) and never sends to another origin, so a key cannot travel anywhere else.
 */
import { channel } from 'node:diagnostics_channel';
import net from 'node:net';
import tls from 'node:tls';
import { encodeRequest, type PlainRequest } from './request-bytes.ts';
import { HttpProtocolError, ResponseParser, type HttpResponse } from './response-parser.ts';

export interface HttpClientOptions {
  maxConnections: number;
  /** A request unanswered after this long (of the machine's time, see machineMs) fails with a timeout and its connection is closed. */
  timeoutMs: number;
  /**
   * Hold the requests made during one turn of the event loop and write them together at its end. A write
   * that wakes an idle server costs the writer a wake-up (on a virtual machine, a costly one); written
   * together, one wake-up serves them all. For a client that does much work per answer (replay), not for
   * one that measures latency (load). A request others wait for can still be written at once (`request`).
   */
  batchWrites?: boolean;
}

interface Pending {
  resolve(response: HttpResponse): void;
  reject(error: Error): void;
  startedAt: number;
  bytes: Buffer;
  /** Written as soon as it has a connection, even when writes are batched. */
  writeNow: boolean;
  /** Sent on a connection that had answered before: if it dies before any byte comes back, try once more. */
  retryable: boolean;
}

/**
 * For a tool that watches this client's traffic from inside its process, as node:http and undici publish theirs
 * (certify-client's fast-clock.mjs reads when each request left and when each answer came): each request's bytes
 * as they are written to a socket, which a subscriber may replace (`{ bytes }`), and each response once it is
 * complete. Written, not made: a request waits for a free connection, and may go out after an answer the client
 * had read meanwhile. Nothing is published, and nothing costs, without a subscriber.
 */
const REQUEST_CHANNEL = channel('petstore:http-client:request');
const RESPONSE_CHANNEL = channel('petstore:http-client:response');

/**
 * The time a request has waited for its answer, as node's own socket timeouts count it (libuv's monotonic clock):
 * how long the machine and the network took. A clock a tool may speed up (certify-client's fast clock speeds up
 * Date, performance.now and timers, so that a client waits out a Retry-After in a twentieth of the time) must not
 * shorten the wait for an answer too: at rate 20 a 10 s timeout on performance.now is half a real second, which a
 * busy machine exceeds, and the client then drops connections whose 429 it never reads.
 */
const machineMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

class Connection {
  private readonly socket: net.Socket;
  private readonly parser = new ResponseParser();
  private pending: Pending | undefined;
  private receivedAny = false;
  answered = 0;
  alive = true;
  /** Settles once the connection is open, or has failed to open. */
  readonly opened: Promise<void>;

  constructor(
    url: URL,
    private readonly write: (socket: net.Socket, pending: Pending) => void,
    private readonly onIdle: (connection: Connection) => void,
    private readonly onDead: (connection: Connection, pending: Pending | undefined, error: RequestError, retry: boolean) => void,
  ) {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    this.socket = url.protocol === 'https:' ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    this.socket.setNoDelay(true);
    this.opened = new Promise((settle) => {
      this.socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => settle());
      this.socket.once('close', () => settle());
    });
    this.socket.on('data', (chunk: Buffer) => this.data(chunk));
    this.socket.on('error', (error: NodeJS.ErrnoException) => this.die(new RequestError(describeSocketError(error, url), error.code ?? 'ESOCKET')));
    this.socket.on('close', () => this.die(new RequestError('the server closed the connection before answering', 'ECONNCLOSED')));
    this.socket.on('end', () => {
      const response = this.parser.end();
      if (response) this.complete(response);
    });
  }

  send(pending: Pending): void {
    this.pending = pending;
    this.receivedAny = false;
    this.write(this.socket, pending);
  }

  /** Fails the request in flight if it has waited longer than `timeoutMs`. */
  expire(now: number, timeoutMs: number): void {
    if (this.pending && now - this.pending.startedAt > timeoutMs) {
      this.die(new RequestError(`no answer within ${timeoutMs / 1000} s`, 'ETIMEDOUT'));
    }
  }

  close(): void {
    this.alive = false;
    this.socket.destroy();
  }

  private data(chunk: Buffer): void {
    this.receivedAny = true;
    let response: HttpResponse | undefined;
    try {
      response = this.parser.push(chunk);
    } catch (error) {
      const message = error instanceof HttpProtocolError ? `unreadable response: ${error.message}` : String(error);
      return this.die(new RequestError(message, 'EPROTO'));
    }
    if (response) this.complete(response);
  }

  private complete(response: HttpResponse): void {
    if (RESPONSE_CHANNEL.hasSubscribers) RESPONSE_CHANNEL.publish({ response });
    const pending = this.pending;
    this.pending = undefined;
    this.answered++;
    if (!response.keepAlive) this.close();
    pending?.resolve(response);
    if (this.alive) this.onIdle(this);
    else this.onDead(this, undefined, new RequestError('closed', 'ECONNCLOSED'), false);
  }

  private die(error: RequestError): void {
    const wasAlive = this.alive;
    const pending = this.pending;
    this.pending = undefined;
    this.alive = false;
    this.socket.destroy();
    // A request that waited out the timeout reached the server, which kept silent: it is not sent again.
    const retry = pending !== undefined && pending.retryable && !this.receivedAny && error.code !== 'ETIMEDOUT';
    if (wasAlive || pending) this.onDead(this, pending, error, retry);
  }
}

function describeSocketError(error: NodeJS.ErrnoException, url: URL): string {
  const where = `${url.protocol}//${url.host}`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve ${url.hostname}`;
    case 'ECONNRESET':
      return `${where} reset the connection`;
    default:
      return `${where}: ${error.message}`;
  }
}

export class HttpClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly waiting: Pending[] = [];
  private readonly held: Array<[net.Socket, Buffer]> = [];
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly options: HttpClientOptions,
  ) {
    this.sweeper = setInterval(() => {
      const now = machineMs();
      for (const connection of this.all) connection.expire(now, options.timeoutMs);
    }, Math.min(500, options.timeoutMs / 4));
    this.sweeper.unref();
  }

  /**
   * Sends a request to this client's origin (a URL of another is refused before a byte is written; a path
   * goes to this origin). `writeNow`: other work waits for its answer, so it is not held back with the turn's
   * other writes (batchWrites).
   */
  request(request: PlainRequest, writeNow = false): Promise<HttpResponse> {
    if (typeof request.url !== 'string' && request.url.origin !== this.url.origin) {
      return Promise.reject(new RequestError(`refused to send to ${request.url.origin}: this client talks only to ${this.url.origin}`, 'EORIGIN'));
    }
    let bytes: Buffer;
    try {
      bytes = encodeRequest(request, this.url);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send(bytes, writeNow);
  }

  /** Sends prebuilt request bytes; resolves with the response, rejects with a RequestError. */
  send(bytes: Buffer, writeNow = false): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new RequestError('the client is closed', 'ECLOSED'));
      this.dispatch({ resolve, reject, bytes, writeNow, startedAt: machineMs(), retryable: false });
    });
  }

  /**
   * Opens connections ahead of the requests, up to `count` (and maxConnections) in all, and resolves once each is
   * open or has failed: requests then sent together go out together, not each after its own handshake.
   */
  async open(count: number): Promise<void> {
    const opening: Promise<void>[] = [];
    while (this.all.size < Math.min(count, this.options.maxConnections)) {
      const connection = this.connection();
      opening.push(connection.opened.then(() => void (connection.alive && this.idle.push(connection))));
    }
    await Promise.all(opening);
  }

  /** Connections opened so far that are still open. */
  get openConnections(): number {
    return this.all.size;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const connection of this.all) connection.close();
    this.all.clear();
    this.idle.length = 0;
    for (const pending of this.waiting.splice(0)) pending.reject(new RequestError('the client is closed', 'ECLOSED'));
  }

  private dispatch(pending: Pending): void {
    let connection = this.idle.pop();
    while (connection && !connection.alive) connection = this.idle.pop();
    // An idle connection (one that has answered, or was opened ahead) may be closed by the server just as it is used.
    pending.retryable = connection !== undefined;
    if (!connection) {
      if (this.all.size >= this.options.maxConnections) {
        this.waiting.push(pending);
        return;
      }
      connection = this.connection();
    }
    connection.send(pending);
  }

  private connection(): Connection {
    const connection = new Connection(
      this.url,
      (socket, sent) => this.write(socket, sent),
      (ready) => this.release(ready),
      (dead, failed, error, retry) => this.lost(dead, failed, error, retry),
    );
    this.all.add(connection);
    return connection;
  }

  private write(socket: net.Socket, pending: Pending): void {
    // A request sent again (its connection died unanswered) is published again, as it is written again.
    const written = { bytes: pending.bytes };
    if (REQUEST_CHANNEL.hasSubscribers) REQUEST_CHANNEL.publish(written);
    if (!this.options.batchWrites || pending.writeNow) {
      socket.write(written.bytes);
      return;
    }
    if (this.held.length === 0) setImmediate(() => this.flush());
    this.held.push([socket, written.bytes]);
  }

  private flush(): void {
    for (const [socket, bytes] of this.held.splice(0)) if (!socket.destroyed) socket.write(bytes);
  }

  private release(connection: Connection): void {
    const next = this.waiting.shift();
    if (next) connection.send({ ...next, retryable: true });
    else this.idle.push(connection);
  }

  private lost(connection: Connection, pending: Pending | undefined, error: RequestError, retry: boolean): void {
    this.all.delete(connection);
    if (pending) {
      // A kept-alive connection the server closed while idle: the request never reached it, so send it again.
      if (retry && !this.closed) this.dispatch({ ...pending, retryable: false, resolve: (response) => pending.resolve({ ...response, sentAgain: true }) });
      else pending.reject(error);
    }
    const next = !this.closed && this.all.size < this.options.maxConnections ? this.waiting.shift() : undefined;
    if (next) this.dispatch(next);
  }
}
