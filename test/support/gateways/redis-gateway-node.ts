/**
 * One node of a rate-limiting gateway as production builds one in Node: it counts each key in Redis, shared with
 * the other nodes, through rate-limiter-flexible (a fixed window opened by the key's first request, counted by
 * one Lua script: INCRBY and PTTL at once), writes the headers as that library's own example does,
 * `X-RateLimit-Reset: ceil((now + msBeforeNext) / 1000)` with this node's `now`, and passes what it admits to
 * the Pet Store behind it, whose own rate-limit headers it replaces. Two nodes of it round the one window's end
 * each from its own clock reading, so their Resets may differ by a second, and their answers may overtake each
 * other behind a balancer: a correct gateway all the same.
 *
 * GATEWAY_COUNTER=memory counts with the same library in each node's own memory (RateLimiterMemory): correct on
 * one node, and on two behind a balancer each key is admitted up to its quota by each node.
 *
 * GATEWAY_COUNTER=racy swaps the library for the counter a team writes by hand: read the count, decide, write
 * the count plus one, with work between the read and the write (RACE_MS, as a gateway that looks the key's plan
 * up or logs before it writes). Two requests whose reads fall within RACE_MS of each other read the same count
 * and write the same count plus one: both admitted, one counted. So every overlap over-admits, not only the rare
 * one that lands within a Redis round trip, and a run that keeps two requests of a key in flight is over the
 * quota by evidence, not by luck.
 *
 * Run as a process (test/support/gateways/two-node-gateway.ts starts two): GATEWAY_UPSTREAM (the Pet Store's
 * base URL), GATEWAY_REDIS_PORT, GATEWAY_COUNTER (library, memory or racy), GATEWAY_CLOCK_OFFSET_MS (this node's clock ahead
 * of the true time, for its Reset), PETSTORE_TIME_SCALE and the keys as the reference server reads them. It prints its base URL once listening.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Quota } from '../../../lib/plans.ts';
import { Authenticator, BEARER_CHALLENGE } from '../../../reference-server/auth.ts';
import { configFromEnv } from '../../../reference-server/config.ts';
import { DAY_MS, MINUTE_MS } from '../../../reference-server/limiter.ts';
import { readBody } from '../../../reference-server/body.ts';
import { errorReply, send, type HeaderMap } from '../../../reference-server/responses.ts';

/** One window's count after this request: how many it holds, and how long until it ends. */
interface Taken {
  admitted: boolean;
  consumed: number;
  msLeft: number;
}

interface WindowCounter {
  take(subject: string, limit: number): Promise<Taken>;
  /** The count as it stands, nothing taken (to tell a spent day under a spent minute). */
  peek(subject: string, limit: number): Promise<Taken | undefined>;
}

/**
 * rate-limiter-flexible, one limiter per limit as the library is configured: RateLimiterRedis, shared by every node,
 * or (no Redis given) RateLimiterMemory, each node counting on its own, as a team that starts on one node writes it.
 */
class LibraryCounter implements WindowCounter {
  private readonly limiters = new Map<number, RateLimiterRedis | RateLimiterMemory>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly name: string,
    private readonly seconds: number,
  ) {}

  private limiter(points: number): RateLimiterRedis | RateLimiterMemory {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { keyPrefix: `${this.name}-${points}`, points, duration: this.seconds };
      limiter = this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis }) : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  async take(subject: string, limit: number): Promise<Taken> {
    try {
      const res = await this.limiter(limit).consume(subject);
      return { admitted: true, consumed: res.consumedPoints, msLeft: res.msBeforeNext };
    } catch (refusal) {
      // The library refuses with the window's state, and fails with an Error when Redis does.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      return { admitted: false, consumed: refusal.consumedPoints, msLeft: refusal.msBeforeNext };
    }
  }

  async peek(subject: string, limit: number): Promise<Taken | undefined> {
    const res = await this.limiter(limit).get(subject);
    return res ? { admitted: false, consumed: res.consumedPoints, msLeft: res.msBeforeNext } : undefined;
  }
}

/**
 * The racy counter's work between reading the count and writing it: longer than the gap between two requests of
 * one key at 3 times Free's quota at 15-s windows (12 a second, 83 ms apart), so that even one client of the
 * built-in engine's open arrivals has the next request read before this one writes; short enough that the
 * suite's thousands of requests one at a time cost minutes, not a quarter of an hour.
 */
const RACE_MS = 100;

/** Read, decide, work `pauseMs`, write: two requests that read the same count both write it plus one. */
class RacyCounter implements WindowCounter {
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly seconds: number,
    private readonly pauseMs = 0,
  ) {}

  async take(subject: string, limit: number): Promise<Taken> {
    const key = `${this.name}:${subject}`;
    const read = await this.peek(subject);
    const consumed = read?.consumed ?? 0;
    if (consumed >= limit && read) return read;
    const readAt = Date.now();
    if (this.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    if (read) await this.redis.set(key, consumed + 1, 'KEEPTTL');
    else await this.redis.set(key, consumed + 1, 'EX', this.seconds);
    // The window's end as read, not moved on by the pause: the count is this counter's only fault.
    return { admitted: true, consumed: consumed + 1, msLeft: read ? read.msLeft - (Date.now() - readAt) : this.seconds * 1000 };
  }

  async peek(subject: string): Promise<Taken | undefined> {
    const key = `${this.name}:${subject}`;
    const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    return count === null || ttl <= 0 ? undefined : { admitted: false, consumed: Number(count), msLeft: ttl };
  }
}

/** A window's length in whole seconds, as Redis's EX takes it. */
function seconds(ms: number, timeScale: number): number {
  const value = ms / timeScale / 1000;
  if (!Number.isInteger(value)) throw new Error(`PETSTORE_TIME_SCALE ${timeScale} makes a window of ${value} s; the gateway counts in whole seconds`);
  return value;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the gateway node needs it`);
  return value;
}

const config = configFromEnv(process.env);
const upstream = new URL(required('GATEWAY_UPSTREAM'));
const redis = new Redis({ host: '127.0.0.1', port: Number(required('GATEWAY_REDIS_PORT')), maxRetriesPerRequest: 1 });
const racy = process.env.GATEWAY_COUNTER === 'racy';
// GATEWAY_COUNTER=memory: the library counting in this node's memory, Redis left unused.
const shared = process.env.GATEWAY_COUNTER === 'memory' ? undefined : redis;
/** How far this node's clock is ahead of the others' (GATEWAY_CLOCK_OFFSET_MS), as NTP leaves a fleet's clocks apart. */
const CLOCK_OFFSET_MS = Number(process.env.GATEWAY_CLOCK_OFFSET_MS ?? 0);
// The racy counter works RACE_MS on the minute's count only: the minute's quota is what each run reaches.
const minute = racy ? new RacyCounter(redis, 'minute', seconds(MINUTE_MS, config.timeScale), RACE_MS) : new LibraryCounter(shared, 'minute', seconds(MINUTE_MS, config.timeScale));
const day = racy ? new RacyCounter(redis, 'day', seconds(DAY_MS, config.timeScale)) : new LibraryCounter(shared, 'day', seconds(DAY_MS, config.timeScale));
const authenticator = new Authenticator(config.keys);
const anonymous: Quota = { perMinute: config.anonymousPerMinute, perDay: config.anonymousPerMinute * 1440 };
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** The headers of the window that binds: the one with fewer left (the day's when both are spent). */
function headers(taken: Taken, limit: number): HeaderMap {
  const result: HeaderMap = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - taken.consumed)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + CLOCK_OFFSET_MS + taken.msLeft) / 1000)),
  };
  if (!taken.admitted) result['Retry-After'] = String(Math.max(1, Math.ceil(taken.msLeft / 1000)));
  return result;
}

async function decide(subject: string, quota: Quota): Promise<HeaderMap & { admitted?: never }> {
  const ofMinute = await minute.take(subject, quota.perMinute);
  if (!ofMinute.admitted) {
    const ofDay = await day.peek(subject, quota.perDay);
    return ofDay && ofDay.consumed >= quota.perDay ? headers(ofDay, quota.perDay) : headers(ofMinute, quota.perMinute);
  }
  const ofDay = await day.take(subject, quota.perDay);
  if (!ofDay.admitted || quota.perDay - ofDay.consumed < quota.perMinute - ofMinute.consumed) return headers(ofDay, quota.perDay);
  return headers(ofMinute, quota.perMinute);
}

const RATE_LIMIT_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'connection', 'keep-alive', 'transfer-encoding']);

/** More than nginx passes on (its client_max_body_size is 1 MB): a body is read to its end, never cut off. */
const READ_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The request's body is read whole first, as a buffering proxy reads it (nginx does too), and one past the Pet
 * Store's limit is refused here with the Pet Store's 413, once read: a node that answered while nginx still wrote
 * the body, and closed, had nginx answer 502 for it.
 */
async function forward(req: IncomingMessage, res: ServerResponse, limits: HeaderMap): Promise<void> {
  const body = await readBody(req, READ_BODY_BYTES);
  if (body.kind === 'aborted') return void res.destroy();
  if (body.kind === 'too-large' || body.bytes.length > config.maxBodyBytes) {
    return send(res, { ...errorReply(413, `the request body is larger than ${config.maxBodyBytes} bytes`), close: body.kind === 'too-large' }, limits);
  }
  const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.bytes.length) };
  delete headers['transfer-encoding'];
  const bytes = body.bytes;
  const pass = (retried: boolean): void => {
    const outgoing = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      const passed: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !RATE_LIMIT_HEADERS.has(name)) passed[name] = value;
      res.writeHead(answer.statusCode ?? 502, { ...passed, ...limits });
      answer.pipe(res);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the Pet Store closed as idle just as this request took it: the request never reached
      // it, so it is sent again on a new connection, once (as Node's documentation of reusedSocket does, and nginx's
      // proxy_next_upstream), never answered 502 for the Pet Store's housekeeping.
      if (!retried && outgoing.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent) return pass(true);
      if (res.headersSent) return void res.destroy();
      send(res, errorReply(502, `the Pet Store behind the gateway did not answer: ${error.message}`), limits);
    });
    outgoing.end(bytes);
  };
  pass(false);
}

// Longer than nginx keeps an idle upstream connection (60 s): nginx never reuses one this node has just closed.
const server = createServer({ keepAliveTimeout: 75_000 }, (req, res) => {
  const authentication = authenticator.authenticate(req.headers.authorization);
  const [subject, quota] = 'caller' in authentication ? [authentication.caller.subject, config.quotas[authentication.caller.plan]] : [`address ${req.socket.remoteAddress}`, anonymous];
  decide(subject, quota).then(
    (limits) => {
      if (limits['Retry-After'] !== undefined) return send(res, errorReply(429, `rate limit of ${limits['X-RateLimit-Limit']} requests exceeded; retry after ${limits['Retry-After']} seconds`), limits);
      if ('problem' in authentication) return send(res, errorReply(401, authentication.problem, { 'WWW-Authenticate': BEARER_CHALLENGE }), limits);
      return forward(req, res, limits);
    },
    (error: unknown) => send(res, errorReply(503, `the gateway cannot count this request: ${error instanceof Error ? error.message : String(error)}`)),
  ).catch((error: unknown) => {
    process.stderr.write(`gateway node: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    res.destroy();
  });
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(`Pet Store gateway node (${process.env.GATEWAY_COUNTER ?? 'library'} counter) listening on http://${config.host}:${port}/v1\n`);
});

const stop = (): void => {
  server.close(() => void redis.quit().finally(() => process.exit(0)));
  server.closeIdleConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
