/**
 * Starts the reference server as a child process on a free port, for the load script, the replay harness
 * and tests that want a server of their own. Resolves once the server has printed its base URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface SpawnOptions {
  /** Extra environment for the server (PETSTORE_TIME_SCALE, keys, ...), over the parent's. */
  env?: Record<string, string>;
}

export interface SpawnedServer {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  /** SIGTERM, then SIGKILL if the server has not exited within a few seconds. */
  stop(): Promise<void>;
}

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = import.meta.resolve('tsx');
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const URL_LINE = /(http:\/\/\S+\/v1)\b/;

/** Children still running when this process exits are killed, so a crashed test leaves no server behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function spawnReferenceServer({ env = {} }: SpawnOptions = {}): Promise<SpawnedServer> {
  return spawnServerScript(MAIN, { PETSTORE_LOG: 'off', ...env }, 'the reference server');
}

/**
 * Runs a TypeScript server script that prints a line with its `http://…/v1` base URL once listening (the
 * reference server, or a benchmark's peer). HOST and PORT are set here, not inherited: a shell's HOST is
 * often the machine's name.
 */
export function spawnServerScript(script: string, env: Record<string, string> = {}, name = script): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', TSX, script], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4_000);
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
  };

  return new Promise((resolve, reject) => {
    const fail = (reason: string): void => {
      void stop();
      reject(new Error(`${name} did not start: ${reason}`));
    };
    const timer = setTimeout(() => fail(`no base URL printed within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const found = URL_LINE.exec(line);
      if (!found?.[1]) return;
      clearTimeout(timer);
      lines.close();
      // Keep draining, unread, so that a chatty server (PETSTORE_LOG=json) never blocks on a full pipe.
      child.stdout.resume();
      resolve({ baseUrl: found[1], pid: child.pid ?? 0, stop });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(`it exited with code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`);
    });
  });
}
