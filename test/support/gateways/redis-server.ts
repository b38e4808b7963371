/**
 * Debian's redis-server for a test: its own process on 127.0.0.1, on a free port, with its own folder and
 * nothing saved to disk; no system service is touched. scripts/ensure-redis.sh installs it (npm run test:field).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../../lib/free-port.ts';

export const REDIS_HINT = 'redis-server not found: install it (Debian: apt-get install redis-server; as root, bash scripts/ensure-redis.sh does) to run the two-node gateway tests';

export function redisServerPath(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));
}

export interface RunningRedis {
  port: number;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const binary = redisServerPath();
  if (!binary) throw new Error(REDIS_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', join(dir, 'redis.log')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // Refused connections while the server starts are expected: each attempt's own promise reports them.
  client.on('error', () => {});
  try {
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`redis-server exited at start (its log: ${join(dir, 'redis.log')})`);
      try {
        await client.connect();
        await client.ping();
        break;
      } catch (error) {
        client.disconnect();
        if (attempt >= 100) throw new Error(`redis-server did not answer on 127.0.0.1:${port} within 5 s: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    client.disconnect();
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
