/**
 * Runs the user's own client (a script, an SDK's test suite, a CLI) against the refusing server, bounded by a
 * timeout, and hands back everything it sent. The client learns where to go and which keys to use from its
 * environment, in the names this project uses and in those SDKs are commonly configured by (CLIENT_ENV_NAMES).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SettingsOfPart } from '../../lib/docs/setting-docs.ts';
import { ClockFollowers, type ClockFollowing } from './clock-followers.ts';
import { ClientEvidence } from './crossing.ts';
import { startRefusingServer, type RecordedExchange, type RefusingServer, type Strays } from './refusing-server.ts';

/** The variables the client gets, for the help and the how-to. */
export const CLIENT_ENV_NAMES = {
  baseUrl: ['PETSTORE_BASE_URL', 'API_BASE_URL', 'BASE_URL'],
  keys: ['PETSTORE_API_KEY_FREE', 'PETSTORE_API_KEY_PRO', 'PETSTORE_API_KEY_BUSINESS'],
  /** The Free key again, for a client configured with one key. */
  oneKey: ['PETSTORE_API_KEY', 'API_KEY'],
} as const;

/** What the client is given beyond the variables every part documents (docs/reference/settings.md). */
export const CLIENT_SETTINGS: SettingsOfPart = {
  part: 'Given to the client `petstore-conformance certify-client` runs (set by it, for the client to read)',
  read: () => undefined,
  settings: [
    { name: 'PETSTORE_BASE_URL, API_BASE_URL, BASE_URL', default: 'always set', check: 'a URL', meaning: "The refusing server's base URL, `/v1` included." },
    { name: 'PETSTORE_API_KEY, API_KEY', default: 'always set', check: 'a key', meaning: 'The Free key (also in `PETSTORE_API_KEY_FREE`), for a client configured with one key; `_PRO` and `_BUSINESS` are set too.' },
    { name: 'PETSTORE_CLIENT_EVIDENCE', default: 'always set', check: 'a folder', meaning: "Where each Node process of the client (fast-clock.mjs, loaded through NODE_OPTIONS at every rate) writes when each request was written to its socket (each named in `x-petstore-client-request`) and when each 429 reached it, so that whether a request crossed a 429 is read from the client's own clock." },
    { name: 'PETSTORE_CLIENT_CLOCK_RATE', default: 'unset at --clock-rate 1', check: 'a number', meaning: 'With `--clock-rate N`: how many times faster than real time the Node client\'s clock runs (fast-clock.mjs, loaded through NODE_OPTIONS).' },
    { name: 'PETSTORE_CLIENT_CLOCK_ANCHOR_MS', default: 'unset at --clock-rate 1', check: 'ms since the epoch', meaning: "With `--clock-rate N`: when the fast clock equals the wall clock, the server's own anchor, so both clocks agree." },
    { name: 'PETSTORE_CLIENT_CLOCK_PIDS', default: 'unset at --clock-rate 1', check: 'a folder', meaning: 'With `--clock-rate N`: where each process on the fast clock writes its id, so that each request can be traced to a process whose clock follows (a client on the real clock is not certified).' },
  ],
};

const FAST_CLOCK = fileURLToPath(new URL('./fast-clock.mjs', import.meta.url));
/** After the timeout, the client's process group is asked to stop, and then stopped. */
const KILL_GRACE_MS = 2_000;

export interface ClientRunOptions {
  command: readonly string[];
  seed: number;
  /** 1: real time. More: the server's clock and, for a Node client, its own run that many times faster. */
  clockRate: number;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where the client's output goes (default: this process's). */
  stdio?: 'inherit' | 'ignore';
}

export interface ClientRun {
  exchanges: RecordedExchange[];
  /** Requests without one of the keys the client was given. */
  strays: Strays;
  exitCode: number | null;
  timedOut: boolean;
  /** Real milliseconds the client ran. */
  durationMs: number;
  clockRate: number;
  /** Whether the client's requests came from processes on the server's clock (always at rate 1). */
  clockFollowed: ClockFollowing;
  startedAt: Date;
  baseUrl: string;
  /** The keys the client was given, so that reports can redact them. */
  keys: string[];
}

export class ClientStartError extends Error {
  override name = 'ClientStartError';
}

export async function runClient(options: ClientRunOptions): Promise<ClientRun> {
  const server = await startRefusingServer({ seed: options.seed, clockRate: options.clockRate });
  const followers = options.clockRate === 1 ? undefined : new ClockFollowers();
  followers?.watch(server.server);
  const evidence = new ClientEvidence();
  const startedAt = new Date();
  try {
    const { exitCode, timedOut } = await spawnClient(options, clientEnv(server, options, followers, evidence));
    const clock = followers === undefined ? 'followed' : followers.following();
    const { sent, received } = evidence.read();
    for (const exchange of server.exchanges) {
      const receivedAt = exchange.status === 429 ? received.get(String(exchange.arrival)) : undefined;
      if (receivedAt !== undefined) exchange.clientReceivedAt = server.clock.at(receivedAt);
      const sentAt = exchange.clientRequest === undefined ? undefined : sent.get(exchange.clientRequest);
      if (sentAt !== undefined) exchange.clientSentAt = server.clock.at(sentAt);
    }
    return { exchanges: server.exchanges, strays: { ...server.strays }, exitCode, timedOut, durationMs: Date.now() - startedAt.getTime(), clockRate: options.clockRate, clockFollowed: clock, startedAt, baseUrl: server.baseUrl, keys: Object.values(server.keys) };
  } finally {
    followers?.close();
    evidence.close();
    await server.close();
  }
}

function clientEnv(server: RefusingServer, options: ClientRunOptions, followers: ClockFollowers | undefined, evidence: ClientEvidence): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...options.env };
  for (const name of CLIENT_ENV_NAMES.baseUrl) env[name] = server.baseUrl;
  env.PETSTORE_API_KEY_FREE = server.keys.free;
  env.PETSTORE_API_KEY_PRO = server.keys.pro;
  env.PETSTORE_API_KEY_BUSINESS = server.keys.business;
  for (const name of CLIENT_ENV_NAMES.oneKey) env[name] = server.keys.free;
  // At every rate: the client's own side of each exchange (crossing.ts); the clock only runs fast at N > 1.
  env.PETSTORE_CLIENT_EVIDENCE = evidence.dir;
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(FAST_CLOCK).href}`.trim();
  if (options.clockRate !== 1) {
    env.PETSTORE_CLIENT_CLOCK_RATE = String(options.clockRate);
    env.PETSTORE_CLIENT_CLOCK_ANCHOR_MS = String(server.clock.anchorMs);
    if (followers) env.PETSTORE_CLIENT_CLOCK_PIDS = followers.dir;
  }
  return env;
}

function spawnClient(options: ClientRunOptions, env: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; timedOut: boolean }> {
  const [program, ...args] = options.command;
  if (program === undefined) return Promise.reject(new ClientStartError('no command to run the client with'));
  return new Promise((resolve, reject) => {
    // A group of its own, so that the timeout stops the client's children too (npm test spawns more).
    const child = spawn(program, args, { cwd: options.cwd, env, stdio: ['ignore', options.stdio ?? 'inherit', options.stdio ?? 'inherit'], detached: true });
    let timedOut = false;
    const stop = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    // The client has a process group of its own: if this process ends first, it must not outlive it.
    const orphaned = (): void => stop('SIGKILL');
    process.once('exit', orphaned);
    const timer = setTimeout(() => {
      timedOut = true;
      stop('SIGTERM');
      setTimeout(() => stop('SIGKILL'), KILL_GRACE_MS).unref();
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ClientStartError(`could not start the client "${program}": ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      process.off('exit', orphaned);
      resolve({ exitCode: code, timedOut });
    });
  });
}
