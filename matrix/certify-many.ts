/**
 * `certify implementations.yaml`: certifies every implementation of the file with the unchanged suite, each
 * in reports/certify/<name>/, then writes the matrix (index.html, matrix.json) and a badge per implementation.
 * Exit code 0 when every implementation was certified and failed exactly as its expectations say; 1 otherwise;
 * 130 on Ctrl-C (after stopping what it started and writing what it has).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ExitCode } from '../lib/docs/exit-codes.ts';
import { catalogue } from '../lib/rules.ts';
import type { SuiteProgress } from '../lib/processes/suite-progress.ts';
import { changesSince, readBaseline, type Baseline } from './baseline.ts';
import { renderBadge } from './badge.ts';
import { buildMatrix, type ImplementationRun } from './build-matrix.ts';
import { certifyImplementation, resolveKeys } from './certify-implementation.ts';
import { readExpectations, type ExpectedFailure } from './expectations-file.ts';
import { readImplementationsFile, type Implementation } from './implementations-file.ts';
import type { Matrix } from './model.ts';
import { renderMatrix } from './render-html.ts';
import { summaryLines } from './summary.ts';
import { updatedExpectations } from './update-expectations.ts';

export interface CertifyManyOptions {
  implementationsFile: string;
  /** Absolute: reports/certify/ */
  outputDir: string;
  parallel: number;
  updateExpectations: boolean;
  baseline?: string;
  env: NodeJS.ProcessEnv;
  suiteVersion: string;
  rulesHash: string;
  write(line: string): void;
}

/** Problems that stop the whole command before anything runs (exit 2): one line each. */
export class CertifyManyError extends Error {
  override name = 'CertifyManyError';
}

const INTERRUPTED_EXIT_CODE = 130;

/** `certify implementations.yaml`'s exit codes, as its --help and docs/reference/exit-codes.md give them. */
export const MATRIX_EXIT_CODES: readonly ExitCode[] = [
  { code: 0, when: 'every implementation was certified and failed exactly as its expectations file says' },
  { code: 1, when: 'an unexpected failure (a regression), an unexpected pass, or an implementation that could not be certified' },
  { code: 2, when: 'bad input: the implementations file, a flag, a baseline, an expectations file' },
  { code: INTERRUPTED_EXIT_CODE, when: 'interrupted (Ctrl-C): what had finished is still written' },
];

export async function certifyMany(options: CertifyManyOptions): Promise<number> {
  const file = readImplementationsFile(options.implementationsFile);
  const knownRules = new Set(catalogue.rules.map((rule) => rule.id));
  const runs = new Map<string, ImplementationRun>();
  for (const { name, problem } of file.rejected) {
    options.write(`certify: ${name}: ${problem}`);
    runs.set(name, { name, target: 'not reached', problem, expectations: [] });
  }
  const expectations = new Map<string, ExpectedFailure[]>();
  const runnable: Implementation[] = [];
  for (const implementation of file.implementations) {
    try {
      expectations.set(implementation.name, implementation.expectations ? readExpectations(implementation.expectations, knownRules) : []);
      runnable.push(implementation);
    } catch (error) {
      options.write(`certify: ${implementation.name}: ${(error as Error).message}`);
      runs.set(implementation.name, { name: implementation.name, target: 'not reached', problem: (error as Error).message, expectations: [] });
    }
  }
  if (options.parallel > 1) refuseSharedKeys(runnable, options.env);
  const baseline = options.baseline === undefined ? undefined : readBaseline(options.baseline, file.order);

  const abort = new AbortController();
  const onSignal = (): void => {
    if (!abort.signal.aborted) options.write('certify: interrupted: stopping the runs and what they started, then writing what there is');
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  mkdirSync(options.outputDir, { recursive: true });
  const limit = pLimit(Math.max(1, options.parallel));
  let position = 0;
  try {
    await Promise.all(
      runnable.map((implementation) =>
        limit(async () => {
          if (abort.signal.aborted) {
            runs.set(implementation.name, { name: implementation.name, target: 'not reached', problem: 'interrupted (Ctrl-C) before it started', expectations: [] });
            return;
          }
          const label = `[${++position}/${runnable.length}] ${implementation.name}`;
          options.write(`${label}: certifying`);
          const outcome = await certifyImplementation(implementation, {
            outputDir: path.join(options.outputDir, implementation.name),
            cwd: path.dirname(file.file),
            env: options.env,
            signal: abort.signal,
            onProgress: progressPrinter(label, options.write),
          });
          options.write(`${label}: ${outcome.report ? outcome.report.verdict.headline : `could not certify: ${outcome.problem}`}`);
          runs.set(implementation.name, {
            name: implementation.name,
            ...(implementation.version === undefined ? {} : { version: implementation.version }),
            target: outcome.target,
            ...(outcome.report ? { report: outcome.report } : {}),
            ...(outcome.problem ? { problem: outcome.problem } : {}),
            expectations: expectations.get(implementation.name) ?? [],
            ...(implementation.expectations ? { expectationsFile: path.relative(path.dirname(file.file), implementation.expectations) } : {}),
          });
        }),
      ),
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  let inOrder = file.order.flatMap((name) => runs.get(name) ?? []);
  if (options.updateExpectations) inOrder = updatedExpectations(inOrder, file, options.write);
  const matrix = withBaseline(buildMatrix(inOrder, catalogue, options.suiteVersion, options.rulesHash), baseline, options.baseline);
  writeMatrix(matrix, options.outputDir);
  for (const line of summaryLines(matrix, options.outputDir)) options.write(line);
  if (abort.signal.aborted) return INTERRUPTED_EXIT_CODE;
  return matrix.asExpected ? 0 : 1;
}

function writeMatrix(matrix: Matrix, outputDir: string): void {
  writeFileSync(path.join(outputDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(path.join(outputDir, 'index.html'), renderMatrix(matrix));
  for (const implementation of matrix.implementations) {
    const badge = path.join(outputDir, implementation.badgeHref);
    mkdirSync(path.dirname(badge), { recursive: true });
    writeFileSync(badge, renderBadge(implementation, matrix.specVersion));
  }
}

function withBaseline(matrix: Matrix, baseline: Baseline | undefined, file: string | undefined): Matrix {
  if (!baseline || file === undefined) return matrix;
  const implementations = matrix.implementations.map((implementation, column) => ({
    ...implementation,
    changes: changesSince(baseline, implementation.name, new Map(matrix.rows.map((row) => [row.id, { verdict: row.cells[column]!.verdict, ...(row.cells[column]!.gist ? { gist: row.cells[column]!.gist } : {}) }]))),
  }));
  return { ...matrix, implementations, baseline: file };
}

/**
 * Two runs on one key spend each other's quotas and read each other's Remaining: in parallel, no key may
 * serve two implementations reached by URL (a started implementation has keys of its own process).
 */
function refuseSharedKeys(implementations: readonly Implementation[], env: NodeJS.ProcessEnv): void {
  const owner = new Map<string, string>();
  for (const implementation of implementations) {
    if (implementation.reach.kind !== 'url') continue;
    const keys = resolveKeys(implementation, env);
    if ('missing' in keys) continue;
    for (const key of Object.values(keys).flat()) {
      const other = owner.get(key);
      if (other !== undefined && other !== implementation.name) {
        throw new CertifyManyError(`--parallel: ${other} and ${implementation.name} share a key; two runs on one key spend each other's quotas. Give them separate keys, or certify them one after another (no --parallel)`);
      }
      owner.set(key, implementation.name);
    }
  }
}

/** A line when a tenth more of the tests is done, or when a MUST rule starts failing. */
function progressPrinter(label: string, write: (line: string) => void): (progress: SuiteProgress) => void {
  let shownTenth = -1;
  let shownFailing = 0;
  return (progress) => {
    if (progress.total === 0) return;
    const tenth = Math.floor((progress.done / progress.total) * 10);
    if (tenth === shownTenth && progress.failingMust.length === shownFailing) return;
    shownTenth = tenth;
    shownFailing = progress.failingMust.length;
    const failing = progress.failingMust;
    const running = failing.length === 0 ? 'no MUST rule failing so far' : `failing so far: ${failing.slice(0, 5).join(', ')}${failing.length > 5 ? ` and ${failing.length - 5} more` : ''}`;
    write(`${label}: ${progress.done}/${progress.total} tests, ${running}`);
  };
}
