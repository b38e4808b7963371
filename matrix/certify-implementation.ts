/**
 * Certifies one implementation of an implementations file with the unchanged suite, as `certify --base-url`
 * would: its own report folder, its keys from the variables its entry names, started and stopped here when
 * it has a start command. Never throws for the implementation's sake: what went wrong becomes `problem`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEMO_KEYS, keyVariable, type KeysByPlan } from '../lib/keys.ts';
import { PLAN_IDS } from '../lib/plans.ts';
import { Redactor } from '../lib/redact.ts';
import type { SuiteProgress } from '../lib/processes/suite-progress.ts';
import type { ConformanceReport } from '../lib/verdicts/model.ts';
import { reportEnv, suiteNodeArgs } from '../lib/processes/suite-process.ts';
import { PACKAGE_ROOT } from '../lib/processes/child.ts';
import type { Implementation } from './implementations-file.ts';
import { startImplementation, type StartedImplementation } from './start-command.ts';

export interface CertifyOutcome {
  /** Where the suite reached it (a base URL, never a key). */
  target: string;
  report?: ConformanceReport;
  problem?: string;
}

export interface CertifyContext {
  /** reports/certify/<name>/ */
  outputDir: string;
  /** The implementations file's folder: start commands run there. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  onProgress(progress: SuiteProgress): void;
}

/** Settings of the caller's environment that describe one target; each implementation gets its own instead. */
const PER_TARGET = /^(PETSTORE_(BASE_URL|API_KEY_[A-Z]+|READ_ONLY|QUOTA_TESTS|FRESH_KEYS|ENTERPRISE_PER_[A-Z]+|TARGET_CLOCK_[A-Z_]+|CONFORMANCE_REPORT_DIR|PROGRESS_FILE)|PLAYWRIGHT_[A-Z_]+_(DIR|FILE|OPEN))$/;
const PROGRESS_POLL_MS = 500;
/** Beyond the suite's own bound on a run (PETSTORE_RUN_TIMEOUT_SECONDS), for it to write its reports. */
const REPORT_GRACE_MS = 120_000;
const DEFAULT_RUN_TIMEOUT_SECONDS = 1_800;

/** The keys an entry names, or which of its variables are unset. */
export function resolveKeys(implementation: Implementation, env: NodeJS.ProcessEnv): KeysByPlan | { missing: string[] } {
  if (implementation.keys.kind === 'demo') return DEMO_KEYS as KeysByPlan;
  const keys = Object.fromEntries(PLAN_IDS.map((plan) => [plan, [] as string[]])) as unknown as KeysByPlan;
  const missing: string[] = [];
  for (const [plan, variable] of Object.entries(implementation.keys.variables) as Array<[keyof KeysByPlan, string]>) {
    const listed = (env[variable] ?? '').split(',').map((key) => key.trim()).filter(Boolean);
    if (listed.length === 0) missing.push(variable);
    keys[plan] = listed;
  }
  return missing.length > 0 ? { missing } : keys;
}

export async function certifyImplementation(implementation: Implementation, context: CertifyContext): Promise<CertifyOutcome> {
  const keys = resolveKeys(implementation, context.env);
  if ('missing' in keys) {
    return { target: describeReach(implementation), problem: `key variable${keys.missing.length > 1 ? 's' : ''} ${keys.missing.join(', ')} ${keys.missing.length > 1 ? 'are' : 'is'} not set` };
  }
  rmSync(context.outputDir, { recursive: true, force: true });
  mkdirSync(context.outputDir, { recursive: true });
  const redactor = new Redactor(keys);
  const base = Object.fromEntries(Object.entries(context.env).filter(([name]) => !PER_TARGET.test(name)));
  // Demo keys are the reference server's fallback when its key variables are unset; others reach a started implementation too.
  const keyEnv = implementation.keys.kind === 'demo' ? {} : Object.fromEntries(PLAN_IDS.filter((plan) => keys[plan].length > 0).map((plan) => [keyVariable(plan), keys[plan].join(',')]));

  let started: StartedImplementation | undefined;
  let baseUrl: string | undefined;
  if (implementation.reach.kind === 'url') baseUrl = implementation.reach.baseUrl;
  if (implementation.reach.kind === 'start') {
    try {
      started = await startImplementation({
        command: implementation.reach.command,
        cwd: context.cwd,
        env: { ...base, ...keyEnv },
        timeoutMs: implementation.reach.timeoutMs,
        logFile: path.join(context.outputDir, 'implementation.log'),
        redactor,
        signal: context.signal,
      });
      baseUrl = started.baseUrl;
    } catch (error) {
      return { target: describeReach(implementation), problem: (error as Error).message };
    }
  }
  try {
    const suiteEnv: NodeJS.ProcessEnv = {
      ...base,
      ...(implementation.keys.kind === 'demo' ? Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan].join(',')])) : keyEnv),
      ...(baseUrl === undefined ? {} : { PETSTORE_BASE_URL: baseUrl }),
      ...(implementation.readOnly ? { PETSTORE_READ_ONLY: '1' } : {}),
      ...(implementation.quotaTests ? { PETSTORE_QUOTA_TESTS: '1' } : {}),
      ...reportEnv(context.outputDir),
      PETSTORE_PROGRESS_FILE: path.join(context.outputDir, 'progress.json'),
    };
    if (implementation.reach.kind === 'bundled') for (const plan of PLAN_IDS) delete suiteEnv[keyVariable(plan)];
    const lastLines = await runSuite(suiteEnv, context, redactor);
    rmSync(suiteEnv.PETSTORE_PROGRESS_FILE!, { force: true });
    const target = baseUrl ?? 'the bundled reference server';
    const reportFile = path.join(context.outputDir, 'conformance.json');
    if (!existsSync(reportFile)) {
      return { target, problem: context.signal.aborted ? 'interrupted (Ctrl-C) before the suite wrote its report' : `the suite wrote no report: ${lastLines || 'it printed nothing'}` };
    }
    return { target, report: JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport };
  } finally {
    await started?.stop();
  }
}

function describeReach(implementation: Implementation): string {
  switch (implementation.reach.kind) {
    case 'bundled':
      return 'the bundled reference server';
    case 'url':
      return implementation.reach.baseUrl;
    case 'start':
      return 'started locally';
  }
}

/** Runs the suite, its output to run.log (keys redacted); resolves with its last lines, for a run that wrote no report. */
function runSuite(env: NodeJS.ProcessEnv, context: CertifyContext, redactor: Redactor): Promise<string> {
  const child = spawn(process.execPath, suiteNodeArgs(context.outputDir), { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(path.join(context.outputDir, 'run.log'));
  const lastLines: string[] = [];
  const read = (line: string): void => {
    const safe = redactor.text(line);
    log.write(`${safe}\n`);
    if (safe.trim()) lastLines.splice(0, lastLines.length, ...[...lastLines, safe.trim().slice(0, 200)].slice(-1));
  };
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream, crlfDelay: Infinity }).on('line', read);

  const progressFile = env.PETSTORE_PROGRESS_FILE ?? '';
  const poll = setInterval(() => {
    try {
      context.onProgress(JSON.parse(readFileSync(progressFile, 'utf8')) as SuiteProgress);
    } catch {
      // Not written yet, or caught mid-write: the next poll reads it.
    }
  }, PROGRESS_POLL_MS);
  const interrupt = (): void => {
    child.kill('SIGINT');
  };
  context.signal.addEventListener('abort', interrupt, { once: true });
  const runTimeoutMs = (Number(env.PETSTORE_RUN_TIMEOUT_SECONDS) || DEFAULT_RUN_TIMEOUT_SECONDS) * 1000 + REPORT_GRACE_MS;
  const bound = setTimeout(() => child.kill('SIGKILL'), runTimeoutMs);

  return new Promise((resolve) => {
    child.once('close', () => {
      clearInterval(poll);
      clearTimeout(bound);
      context.signal.removeEventListener('abort', interrupt);
      log.end(() => resolve(lastLines.join(' | ')));
    });
  });
}
