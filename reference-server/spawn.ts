/**
 * Starts the reference server as a child process on a free port, for the load script, the replay harness
 * and tests that want a server of their own. Resolves once the server has printed its base URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface SpawnOptions {
  /** Extra environment for the server (PETSTORE_TIME_SCALE, keys, ...), over the parent's. */
  env?: Record<string, string>;
  /**
   * The server's stdout goes to this file, as with `npm run serve > server.log`, instead of a pipe this process
   * drains: a benchmark then measures the server's log, not the reader's share of the cores.
   */
  stdoutFile?: string;
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

export function spawnReferenceServer({ env = {}, stdoutFile }: SpawnOptions = {}): Promise<SpawnedServer> {
  return spawnServerScript(MAIN, { PETSTORE_LOG: 'off', ...env }, 'the reference server', stdoutFile);
}

/**
 * Runs a TypeScript server script that prints a line with its `http://…/v1` base URL once listening (the
 * reference server, or a benchmark's peer). HOST and PORT are set here, not inherited: a shell's HOST is
 * often the machine's name.
 */
export function spawnServerScript(script: string, env: Record<string, string> = {}, name = script, stdoutFile?: string): Promise<SpawnedServer> {
  const output = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'w');
  const child = spawn(process.execPath, ['--import', TSX, script], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', output, 'pipe'],
  });
  if (typeof output === 'number') closeSync(output);
  running.add(child);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
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
    const found = (baseUrl: string): void => {
      clearTimeout(timer);
      resolve({ baseUrl, pid: child.pid ?? 0, stop });
    };
    if (stdoutFile !== undefined) {
      const poll = setInterval(() => {
        const baseUrl = URL_LINE.exec(readFileSync(stdoutFile, 'utf8').slice(0, 4_096))?.[1];
        if (baseUrl === undefined) return;
        clearInterval(poll);
        found(baseUrl);
      }, 20);
      void exited.then(() => clearInterval(poll));
    } else if (child.stdout) {
      const lines = createInterface({ input: child.stdout });
      const stdout = child.stdout;
      lines.on('line', (line) => {
        const baseUrl = URL_LINE.exec(line)?.[1];
        if (baseUrl === undefined) return;
        lines.close();
        // Keep draining, unread, so that a chatty server (PETSTORE_LOG=json) never blocks on a full pipe.
        stdout.resume();
        found(baseUrl);
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      fail(`it exited with code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`);
    });
  });
}
