/**
 * The reference server as an object: build it from a configuration (and, for tests, replacement parts),
 * listen, and close. main.ts runs it from the environment; tests run it in-process through this factory.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { targetClock } from '../lib/target-clock.ts';
import { configFromEnv, type ServerConfig } from './config.ts';
import { createMalformedRequestHandler, createRequestHandler } from './handler.ts';
import { FixedWindowLimiter, type RateLimiter } from './limiter.ts';
import { createRequestLog, type LineSink } from './log.ts';
import { BASE_PATH } from './routes.ts';
import { PetStore } from './store.ts';

export interface ServerDeps {
  /** Replaces the fixed-window limiter, e.g. with a sliding-window one. */
  limiter?: RateLimiter;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
  store?: PetStore;
  /** Where log lines go (default stdout). */
  logSink?: LineSink;
}

export interface RunningServer {
  /** http://host:port/v1, without a trailing slash. */
  baseUrl: string;
  store: PetStore;
  server: Server;
  close(): Promise<void>;
}

/** How long open connections may finish their requests on close before they are cut. */
const CLOSE_GRACE_MS = 3_000;

/**
 * Starts a server. Settings not given are those of an empty environment, except that the port defaults to 0
 * (a free one) and logging to off, which is what a test wants.
 */
export async function createReferenceServer(settings: Partial<ServerConfig> = {}, deps: ServerDeps = {}): Promise<RunningServer> {
  const config: ServerConfig = { ...configFromEnv({ PORT: '0', PETSTORE_LOG: 'off' }), ...settings };
  const store = deps.store ?? new PetStore();
  if (!deps.store) store.seed(config.seedPets);
  const log = createRequestLog(config.log, config.keys, deps.logSink);
  const handlerDeps = {
    store,
    limiter: deps.limiter ?? new FixedWindowLimiter({ timeScale: config.timeScale }),
    log,
    clock: deps.clock ?? (config.clockRate === 1 ? Date.now : targetClock(config.clockRate, config.clockAnchorMs ?? Date.now()).now),
  };

  const server = createServer({ keepAliveTimeout: 5_000 }, createRequestHandler(config, handlerDeps));
  server.on('clientError', createMalformedRequestHandler(config, handlerDeps));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const close = (): Promise<void> =>
    new Promise((resolve) => {
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      cut.unref();
      server.close(() => {
        clearTimeout(cut);
        log.flush();
        resolve();
      });
      server.closeIdleConnections();
    });

  return { baseUrl: baseUrlOf(server), store, server, close };
}

export function baseUrlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}${BASE_PATH}`;
}
