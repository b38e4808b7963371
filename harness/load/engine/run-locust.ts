/**
 * Runs a generated Locust test on this machine in Locust's own distributed mode: one master and N worker
 * processes on 127.0.0.1, exactly as they would run on N machines. Locust's master sums the workers' events;
 * this module only starts the processes, passes the keys through the environment and waits, bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../../lib/free-port.ts';
import { keyVariable, type KeysByPlan } from '../../../lib/keys.ts';
import { PLAN_IDS } from '../../../lib/plans.ts';
import { InputError } from '../input-error.ts';
import { locustCommands } from './commands.ts';
import { LOCUSTFILE, RESULT_FILE, type RunPlan } from './run-plan.ts';

export interface LocustRun {
  locust: string;
  /** Holds locustfile.py and petstore-run.json; the result lands beside them. */
  dir: string;
  plan: RunPlan;
  workers: number;
  keys: KeysByPlan;
  onTick?: (elapsedS: number) => void;
  signal?: AbortSignal;
}

/** Time for Locust to start its processes and for the workers to report their last events. */
const STARTUP_ALLOWANCE_S = 60;
const LOCUST_PROCESS_OPTIONS = ['--loglevel', 'WARNING'];

export async function runLocust(run: LocustRun): Promise<string> {
  const port = await freePort();
  // Keys reach the generators only through their environment, never their command line or files.
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1' };
  for (const plan of PLAN_IDS) if (run.keys[plan].length > 0) env[keyVariable(plan)] = run.keys[plan].join(',');
  const commands = locustCommands(run.plan, run.workers, join(run.dir, LOCUSTFILE));
  const master = start(run.locust, [...commands.master, ...LOCUST_PROCESS_OPTIONS, '--master-bind-host', '127.0.0.1', '--master-bind-port', String(port)], env);
  const workers = Array.from({ length: run.workers }, () => start(run.locust, [...commands.worker, ...LOCUST_PROCESS_OPTIONS, '--master-host', '127.0.0.1', '--master-port', String(port)], env));
  const all = [master, ...workers];
  const started = Date.now();
  const ticker = setInterval(() => run.onTick?.((Date.now() - started) / 1000), 1_000);
  const stop = (): void => void master.process.kill('SIGINT');
  run.signal?.addEventListener('abort', stop, { once: true });
  const deadline = setTimeout(() => all.forEach((child) => child.process.kill('SIGKILL')), (run.plan.durationS + STARTUP_ALLOWANCE_S) * 1000);
  try {
    const code = await master.exited;
    // Workers leave on the master's quit message; one that does not is not left behind.
    const leftover = setTimeout(() => workers.forEach((worker) => worker.process.kill('SIGKILL')), 10_000);
    await Promise.all(workers.map((worker) => worker.exited));
    clearTimeout(leftover);
    if (code !== 0 && code !== 1) {
      throw new InputError(`Locust's master stopped with exit code ${code}: ${lastLine(master.stderr()) || lastLine(workers.map((w) => w.stderr()).join('\n')) || 'no message'}`);
    }
  } finally {
    clearInterval(ticker);
    clearTimeout(deadline);
    run.signal?.removeEventListener('abort', stop);
  }
  return join(run.dir, RESULT_FILE);
}

interface Started {
  process: ChildProcess;
  exited: Promise<number>;
  stderr: () => string;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', (error) => reject(new InputError(`cannot start Locust (${command}): ${error.message}`)));
    child.once('exit', (code) => resolve(code ?? 1));
  });
  return { process: child, exited, stderr: () => errors };
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter((line) => !line.includes('WARNING')).at(-1) ?? '';
}
