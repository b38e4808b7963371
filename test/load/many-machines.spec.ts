/**
 * The export's README, followed step by step on "many machines": the target, Locust's master and two workers
 * each in a network namespace of their own on this machine, joined by veth pairs to a bridge (addresses
 * 10.200.0.x exist only inside these namespaces). Each generator is started with the README's own command
 * lines, keys in its environment; the master's result, handed back with --verdicts-from, must give the
 * verdicts of a local run of the same scenario. Needs root and `ip netns`; skipped, saying why, without them.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { findLocust } from '../../harness/load/engine/locust-binary.ts';
import { RESULT_FILE } from '../../harness/load/engine/run-plan.ts';
import type { LoadSummary } from '../../harness/load/summary.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { overLimit, runAgainst, type KeyPlan } from './support/run.ts';
import { alike, statuses } from './support/verdict-parity.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'harness/load/main.ts');
const SCALE = 60;
const TARGET = '10.200.0.1';
const MASTER = '10.200.0.2';
const WORKERS = ['10.200.0.3', '10.200.0.4'];
/** Unique per run: other people's tests may make namespaces at the same time. */
const PREFIX = `pcl${process.pid.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

function whyNoNamespaces(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces exist on Linux only';
  if (process.getuid?.() !== 0) return 'making network namespaces needs root';
  try {
    execFileSync('ip', ['netns', 'add', `${PREFIX}probe`], { stdio: 'pipe' });
    execFileSync('ip', ['netns', 'del', `${PREFIX}probe`], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `\`ip netns add\` failed here (${String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n')[0]})`;
  }
}

const locust = findLocust();
const cannot = whyNoNamespaces();
test.skip(!locust && !process.env.CI, 'Locust is not installed: bash scripts/ensure-locust.sh (npm test runs it) or pip install locust');
test.skip(cannot !== undefined, `the many-machines run needs network namespaces: ${cannot}`);

const namespaces: string[] = [];
const processes: ChildProcess[] = [];
test.afterAll(() => {
  for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
  for (const namespace of namespaces) execFileSync('ip', ['netns', 'del', namespace], { stdio: 'ignore' });
});

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: 'pipe' });
}

/** A hub namespace with a bridge, and one namespace per machine joined to it, named `<prefix><role>`. */
function network(machines: Record<string, string>): void {
  const hub = `${PREFIX}hub`;
  ip('netns', 'add', hub);
  namespaces.push(hub);
  ip('-n', hub, 'link', 'add', 'br0', 'type', 'bridge');
  ip('-n', hub, 'link', 'set', 'br0', 'up');
  Object.entries(machines).forEach(([role, address], index) => {
    const namespace = `${PREFIX}${role}`;
    ip('netns', 'add', namespace);
    namespaces.push(namespace);
    // Both ends are made inside the namespaces, so no interface name can clash with anyone else's.
    ip('link', 'add', 'eth0', 'netns', namespace, 'type', 'veth', 'peer', 'name', `port${index}`, 'netns', hub);
    ip('-n', hub, 'link', 'set', `port${index}`, 'master', 'br0');
    ip('-n', hub, 'link', 'set', `port${index}`, 'up');
    ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    ip('-n', namespace, 'link', 'set', 'eth0', 'up');
    ip('-n', namespace, 'link', 'set', 'lo', 'up');
  });
}

/** A command line as a person types it (`VAR=value locust …`), run by a shell inside a namespace. */
function inNamespace(role: string, line: string, cwd: string, env: NodeJS.ProcessEnv = process.env): { child: ChildProcess; exited: Promise<number>; output: () => string } {
  const child = spawn('ip', ['netns', 'exec', `${PREFIX}${role}`, 'sh', '-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  processes.push(child);
  let output = '';
  const collect = (chunk: Buffer): void => void (output = (output + chunk.toString('utf8')).slice(-4_000));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1))), output: () => output };
}

function load(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr }),
    );
  });
}


test("the export's README on a master, two workers and a target in namespaces of their own gives a local run's verdicts", async () => {
  test.setTimeout(180_000);
  network({ target: TARGET, master: MASTER, worker1: WORKERS[0] as string, worker2: WORKERS[1] as string });
  const dir = mkdtempSync(join(tmpdir(), 'load-many-machines-'));
  const exportDir = join(dir, 'export');

  const target = inNamespace('target', `exec "${process.execPath}" --import tsx reference-server/main.ts`, ROOT, { ...process.env, HOST: TARGET, PORT: '8080', PETSTORE_TIME_SCALE: String(SCALE), PETSTORE_LOG: 'off' });
  await expect.poll(() => target.output(), { timeout: 20_000 }).toContain('listening');

  const exported = await load(['--engine', 'locust', '--plan', 'free,pro', '--rate', '1.2x', '--behaviour', 'naive', '--duration', '4s', '--time-scale', String(SCALE), '--workers', '2', '--export', exportDir], { PETSTORE_BASE_URL: `http://${TARGET}:8080/v1` });
  expect(exported.code, exported.stderr).toBe(0);

  // The README's two command lines, exactly as written, with its placeholders filled in as it says.
  const readme = readFileSync(join(exportDir, 'README.md'), 'utf8');
  const lines = readme.split('\n').filter((line) => line.startsWith('       ')).map((line) => line.trim());
  const masterLine = lines.find((line) => line.startsWith('locust ') && line.includes('--master'));
  const workerLine = lines.find((line) => line.includes('--worker'));
  expect(masterLine, readme).toBeDefined();
  expect(workerLine, readme).toMatch(/^PETSTORE_API_KEY_FREE=\.\.\. PETSTORE_API_KEY_PRO=\.\.\. locust /);
  const keysFilled = (workerLine as string)
    .replace('PETSTORE_API_KEY_FREE=...', `PETSTORE_API_KEY_FREE=${DEMO_KEYS.free.join(',')}`)
    .replace('PETSTORE_API_KEY_PRO=...', `PETSTORE_API_KEY_PRO=${DEMO_KEYS.pro.join(',')}`)
    .replace('<master address>', MASTER);

  const master = inNamespace('master', masterLine as string, exportDir);
  const workers = ['worker1', 'worker2'].map((role) => inNamespace(role, keysFilled, exportDir));
  const code = await master.exited;
  expect([0, 1], master.output()).toContain(code);
  await Promise.all(workers.map((worker) => worker.exited));

  const judged = await load(['--verdicts-from', join(exportDir, RESULT_FILE), '--output', join(dir, 'verdicts')], {});
  expect(judged.code, judged.stderr).toBe(0);
  const fromMachines = JSON.parse(readFileSync(join(dir, 'verdicts', 'summary.json'), 'utf8')) as LoadSummary;
  const result = JSON.parse(readFileSync(join(exportDir, RESULT_FILE), 'utf8')) as { generators: string[] };
  expect(result.generators).toHaveLength(2);

  const local = await createReferenceServer({ timeScale: SCALE });
  try {
    // Naive clients: every check is decided by the target's answers alone, whatever the generators' timing.
    const scenarioKeys: KeyPlan[] = (['free', 'pro'] as const).map((plan) => ({ plan, keyNumber: 1, behaviour: 'naive', rate: overLimit(1.2) }));
    const builtin = await runAgainst(local.baseUrl, scenarioKeys, 4_000, SCALE);
    expect(alike(fromMachines, builtin)).toEqual(statuses(builtin));
  } finally {
    await local.close();
  }
});
