/**
 * One Locust run for the benchmark: a master and N workers on this machine, started with the arguments
 * given, and the CPU their processes spent while the test ran (from the master's "spawn jobs" line to their
 * exit), sampled from /proc, so Locust's start-up (importing it takes about a second per process) weighs on
 * neither contender.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../../lib/free-port.ts';

const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 50;

export interface LocustProcesses {
  locust: string;
  master: string[];
  worker: string[];
  workers: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** CPU seconds the master and workers spent from the start of the test to their exit. */
export async function locustCpuSeconds(run: LocustProcesses): Promise<number> {
  const port = await freePort();
  const master = spawn(run.locust, [...run.master, '--master-bind-host', '127.0.0.1', '--master-bind-port', String(port)], { cwd: run.cwd, env: run.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const workers = Array.from({ length: run.workers }, () => spawn(run.locust, [...run.worker, '--master-host', '127.0.0.1', '--master-port', String(port)], { cwd: run.cwd, env: run.env, stdio: 'ignore' }));
  const all = [master, ...workers];
  const atStart = new Map<ChildProcess, number>();
  const last = new Map<ChildProcess, number>();
  let log = '';
  master.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
    if (atStart.size === 0 && log.includes('Sending spawn jobs')) for (const child of all) atStart.set(child, ticks(child) ?? 0);
  });
  const sampler = setInterval(() => {
    for (const child of all) {
      const now = ticks(child);
      if (now !== undefined) last.set(child, now);
    }
  }, SAMPLE_MS);
  const exits = all.map((child) => new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1))));
  const [code] = await Promise.all(exits);
  clearInterval(sampler);
  if (code !== 0 && code !== 1) throw new Error(`Locust's master exited with ${code}: ${log.trim().split('\n').at(-1) ?? ''}`);
  if (atStart.size === 0) throw new Error(`Locust's test never started: ${log.trim().split('\n').at(-1) ?? ''}`);
  return all.reduce((sum, child) => sum + ((last.get(child) ?? 0) - (atStart.get(child) ?? 0)), 0) / TICKS_PER_SECOND;
}

/** utime + stime of a live process, in clock ticks. */
function ticks(child: ChildProcess): number | undefined {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}
