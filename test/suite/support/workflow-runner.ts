/**
 * Runs a job of the example workflow (.github/workflows/conformance.yml) as GitHub would, as far as it can be
 * without GitHub: each step of this repository's Action (`uses: ./`) runs the Action's own script with the
 * environment its certify step gives it, expressions (`${{ vars.X }}`, `${{ secrets.X }}`, `${{ inputs.x }}`)
 * filled from the job's GitHub Environment; artifacts are folders handed from job to job. Steps that fetch what
 * only GitHub or the team's gateway holds are named by id and stood in for by the caller; any other step fails
 * the run, so a workflow that grows a step the test cannot run is noticed.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../fixtures/listed-tests.ts';

export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
export interface WorkflowJob {
  environment?: string;
  needs?: string | string[];
  'timeout-minutes'?: number;
  if?: string;
  steps: WorkflowStep[];
}
interface ActionFile {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Array<{ id?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> }> };
}

export const WORKFLOW_FILE = path.join(REPO_ROOT, '.github', 'workflows', 'conformance.yml');
export const workflow = parse(readFileSync(WORKFLOW_FILE, 'utf8')) as { jobs: Record<string, WorkflowJob> };
const action = parse(readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as ActionFile;

/** A GitHub Environment: its variables and secrets. */
export interface GitHubEnvironment {
  vars: Record<string, string>;
  secrets: Record<string, string>;
}

export interface JobRun {
  /** The job's working directory (a fresh checkout would be here). */
  workspace: string;
  /** Exit code of each step that ran a command, by step name or id. */
  codes: Array<{ step: string; code: number; output: string }>;
  summary: string;
}

export interface RunJobOptions {
  environment: GitHubEnvironment;
  /** Artifacts uploaded so far, by name: folders. Steps of this job add theirs. */
  artifacts: Map<string, string>;
  /** Stand-ins for steps only GitHub or the team's infrastructure can run, by step id. */
  /** A stand-in may return the step's outputs (what it wrote to $GITHUB_OUTPUT), for later steps' `${{ steps.ID.outputs.NAME }}`. */
  standIns: Record<string, (workspace: string, artifacts: ReadonlyMap<string, string>) => Promise<StepOutputs | void> | StepOutputs | void>;
  /** The environment every command gets beside the step's own (the target's fast clock). */
  env: Record<string, string>;
  timeoutMs: number;
}

export type StepOutputs = Record<string, string>;

export async function runJob(name: string, options: RunJobOptions): Promise<JobRun> {
  const job = workflow.jobs[name];
  if (!job) throw new Error(`the workflow has no job "${name}"`);
  const workspace = mkdtempSync(path.join(tmpdir(), `petstore-workflow-${name}-`));
  const summary = path.join(workspace, '.step-summary.md');
  const codes: JobRun['codes'] = [];
  const outputs = new Map<string, StepOutputs>();
  for (const step of job.steps) {
    const label = step.name ?? step.id ?? step.uses ?? 'step';
    if (step.uses?.startsWith('actions/checkout@')) continue;
    if (step.id && options.standIns[step.id]) {
      outputs.set(step.id, (await options.standIns[step.id]!(workspace, options.artifacts)) ?? {});
      continue;
    }
    if (step.uses?.startsWith('actions/download-artifact@')) {
      const from = options.artifacts.get(step.with?.name ?? '');
      if (!from) throw new Error(`${name}: step "${label}" downloads the artifact "${step.with?.name}", which no earlier job uploaded`);
      cpSync(from, path.join(workspace, step.with?.path ?? '.'), { recursive: true });
      continue;
    }
    if (step.uses === './') {
      const inputs = actionInputs(step.with ?? {}, options.environment, outputs);
      const outcome = await runAction(inputs, workspace, { ...options.env, GITHUB_STEP_SUMMARY: summary }, options.timeoutMs);
      codes.push({ step: label, ...outcome });
      options.artifacts.set(inputs['artifact-name']!, path.join(workspace, inputs.output!));
      continue;
    }
    throw new Error(`${name}: the test does not know how to run step "${label}"; give it an id and a stand-in, or run it here`);
  }
  return { workspace, codes, summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
}

/** `${{ vars.X }}` and `${{ secrets.X }}` from the job's GitHub Environment, `${{ steps.ID.outputs.NAME }}` from earlier steps ('' when unset, as GitHub gives it). */
export function expand(value: string, environment: GitHubEnvironment, outputs: ReadonlyMap<string, StepOutputs> = new Map()): string {
  return value
    .replace(/\$\{\{\s*(vars|secrets)\.([A-Z0-9_]+)\s*\}\}/g, (_, kind: 'vars' | 'secrets', name: string) => environment[kind][name] ?? '')
    .replace(/\$\{\{\s*steps\.([a-z0-9_-]+)\.outputs\.([a-z0-9_-]+)\s*\}\}/gi, (_, step: string, output: string) => outputs.get(step)?.[output] ?? '');
}

/** One step of the Action, as a workflow gives it (`with`), run in `cwd`: its exit code and output. */
export function runActionStep(given: Record<string, string>, environment: GitHubEnvironment, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<{ code: number; output: string; inputs: Record<string, string> }> {
  const inputs = actionInputs(given, environment);
  return runAction(inputs, cwd, env, timeoutMs).then((outcome) => ({ ...outcome, inputs }));
}

/** The Action's inputs as the step gives them, each missing one at its default. */
function actionInputs(given: Record<string, string>, environment: GitHubEnvironment, outputs: ReadonlyMap<string, StepOutputs> = new Map()): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [input, declared] of Object.entries(action.inputs)) inputs[input] = declared.default ?? '';
  for (const [input, value] of Object.entries(given)) {
    if (!(input in action.inputs)) throw new Error(`the workflow gives the Action an input it does not declare: ${input}`);
    inputs[input] = expand(String(value), environment, outputs);
  }
  return inputs;
}

/** The certify step's environment (action.yml), its expressions filled from the inputs; GitHub's own context left empty. */
function certifyStepEnv(inputs: Record<string, string>): Record<string, string> {
  const step = action.runs.steps.find((candidate) => candidate.id === 'certify');
  if (!step?.env) throw new Error('action.yml has no certify step with an env');
  return Object.fromEntries(
    Object.entries(step.env).map(([variable, value]) => {
      const flag = /^\$\{\{\s*inputs\.([a-z-]+)\s*==\s*'true'\s*&&\s*'1'\s*\|\|\s*''\s*\}\}$/.exec(value);
      if (flag) return [variable, inputs[flag[1]!] === 'true' ? '1' : ''];
      return [variable, value.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, input: string) => inputs[input] ?? '').replace(/\$\{\{[^}]*\}\}/g, '')];
    }),
  );
}

function runAction(inputs: Record<string, string>, cwd: string, env: Record<string, string>, timeoutMs: number): Promise<{ code: number; output: string }> {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_|GITHUB_|NODE_OPTIONS$|npm_)/.test(name)));
  mkdirSync(cwd, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      'bash',
      [path.join(REPO_ROOT, 'action', 'certify.sh')],
      { cwd, env: { ...kept, ...certifyStepEnv(inputs), ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

/** The CI how-to, whose steps a team copies into its pipeline. */
export const CI_HOW_TO = 'docs/how-to/certify-in-ci.md';

/**
 * The first step of the Action a Markdown page shows (the README's, or the CI how-to's inside a job): its inputs
 * as written, comments dropped.
 */
export function actionSnippet(page = 'README.md'): Record<string, string> {
  const text = readFileSync(path.join(REPO_ROOT, page), 'utf8');
  const block = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!).find((yaml) => yaml.includes('/petstore-conformance@'));
  if (!block) throw new Error(`${page} shows no step of the Action`);
  const parsed = parse(block) as Array<WorkflowStep> | { jobs: Record<string, WorkflowJob> };
  const steps = Array.isArray(parsed) ? parsed : Object.values(parsed.jobs).flatMap((job) => job.steps);
  const step = steps.find((candidate) => candidate.uses?.includes('/petstore-conformance@'));
  if (!step?.with) throw new Error(`${page}: its Action step gives no inputs`);
  return step.with;
}
