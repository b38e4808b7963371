/**
 * Starts an implementation from its `start` command and waits, bounded, for the base URL it prints once
 * listening. The command runs in a process group of its own, so stopping it stops whatever it started (npm,
 * a shell, the server), on success, on failure and on Ctrl-C alike.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Redactor } from '../lib/redact.ts';
import { freePort } from '../lib/free-port.ts';

export interface StartedImplementation {
  baseUrl: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Everything the command prints goes here, keys replaced by their variables' names. */
  logFile: string;
  redactor: Redactor;
  signal: AbortSignal;
}

export class StartError extends Error {
  override name = 'StartError';
}

/** Groups still running when this process exits are killed: a crash of certify leaves no server behind. */
const runningGroups = new Set<number>();
process.on('exit', () => {
  for (const pid of runningGroups) signalGroup(pid, 'SIGKILL');
});

const URL_IN_LINE = /\bhttps?:\/\/[^\s'"<>]+/;
const STOP_GRACE_MS = 5_000;
const LAST_LINES = 3;

export async function startImplementation(options: StartOptions): Promise<StartedImplementation> {
  const port = await freePort();
  const child = spawn('/bin/sh', ['-c', options.command], {
    cwd: options.cwd,
    env: { ...options.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log = createWriteStream(options.logFile);
  if (child.pid !== undefined) runningGroups.add(child.pid);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let running = true;
  void exited.then(() => {
    running = false;
    if (child.pid !== undefined) runningGroups.delete(child.pid);
    log.end();
  });
  const stop = async (): Promise<void> => {
    if (!running) return;
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const lastLines: string[] = [];
  return new Promise<StartedImplementation>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (reason: string): void =>
      settle(() => {
        void stop().then(() => reject(new StartError(`${reason}${lastLines.length > 0 ? ` (last output: ${lastLines.join(' | ')})` : ''}`)));
      });
    const timer = setTimeout(() => fail(`the start command printed no base URL within ${options.timeoutMs / 1000} s`), options.timeoutMs);
    const onAbort = (): void => fail('interrupted before it was listening');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const read = (line: string): void => {
      const safe = options.redactor.text(line);
      log.write(`${safe}\n`);
      if (safe.trim()) lastLines.splice(0, lastLines.length, ...[...lastLines, safe.trim().slice(0, 160)].slice(-LAST_LINES));
      const url = URL_IN_LINE.exec(line)?.[0];
      if (url !== undefined) settle(() => resolve({ baseUrl: url.replace(/[.,;)]+$/, '').replace(/\/+$/, ''), stop }));
    };
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream, crlfDelay: Infinity }).on('line', read);
    child.once('error', (error) => fail(`the start command could not run: ${error.message}`));
    void exited.then(() => fail(`the start command exited (code ${child.exitCode ?? child.signalCode}) before printing a base URL`));
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has already gone.
  }
}
