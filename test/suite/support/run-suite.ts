/**
 * Runs the conformance suite (the root playwright.config.ts, exactly as a user would) as a child process
 * against a target, and reads its JSON results: which tests passed, which failed, and which rules their
 * failures name. This is how the project proves the suite catches broken servers and passes legitimate ones.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEMO_KEYS, keyVariable, type KeysByPlan } from '../../../lib/keys.ts';
import { PLAN_IDS } from '../../../lib/plans.ts';
import { rulesNamedIn, withoutColours } from '../../../specs/reporter/test-records.ts';
import { citedRules, testsOf, type JsonReport, type JsonResult, type JsonTestEntry } from '../../fixtures/playwright-json.ts';
import { PLAYWRIGHT_CLI, REPO_ROOT } from '../../fixtures/listed-tests.ts';

export interface SuiteRunOptions {
  /** A short name for the run; its output goes to test-results/suite-variants/<label>. */
  label: string;
  /** The target; without one the suite starts its bundled reference server, as `npm run conformance` does. */
  baseUrl?: string;
  keys?: Readonly<KeysByPlan>;
  /** Run only the tests whose title starts with one of these patterns (see ruleTitle); all tests when absent. */
  titles?: readonly string[];
  /** Run only this project of the suite (functional, rate-limits, generated). */
  project?: string;
  quotaTests?: boolean;
  readOnly?: boolean;
  workers?: number;
  /** Extra environment for the suite. */
  env?: Readonly<Record<string, string>>;
  /**
   * Keep the config's own reporters (HTML, JUnit, JSON, conformance) instead of JSON alone, writing them under
   * the run's folder (reports/), as a user's run would.
   */
  allReporters?: boolean;
  timeoutMs?: number;
}

export type SuiteTestStatus = JsonResult['status'];

export interface SuiteTest {
  title: string;
  fullTitle: string;
  file: string;
  line: number;
  /** Rules the test cites: annotations, else its title's prefix. */
  rules: string[];
  status: SuiteTestStatus;
  errors: string[];
  /** Rules named as [ID] in its error messages. */
  namedRules: string[];
  annotations: Array<{ type: string; description?: string }>;
  durationMs: number;
}

export interface SuiteRunResult {
  label: string;
  tests: SuiteTest[];
  exitCode: number;
  durationMs: number;
  /** Errors outside any test (config, global setup, a crash). */
  globalErrors: string[];
  output: string;
}

const execFileAsync = promisify(execFile);
export const VARIANTS_OUTPUT = path.join(REPO_ROOT, 'test-results', 'suite-variants');

/** A title pattern for every test of a rule (`LIST-1 MUST …`, never LIST-10), optionally narrowed by what follows. */
export function ruleTitle(rule: string, rest = ''): string {
  return `${rule} (MUST|SHOULD|GAP) ${rest}`;
}

/** The --grep that selects the tests whose title starts with one of the patterns. */
export function grepForTitles(titles: readonly string[]): string {
  return `(^|\\s)(${titles.map((title) => `(${title})`).join('|')})`;
}

export async function runSuite(options: SuiteRunOptions): Promise<SuiteRunResult> {
  const outputDir = path.join(VARIANTS_OUTPUT, options.label);
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });
  const resultsFile = path.join(outputDir, 'results.json');
  const args = [
    PLAYWRIGHT_CLI,
    'test',
    ...(options.allReporters ? [] : ['--reporter=json']),
    `--output=${path.join(outputDir, 'artifacts')}`,
    ...(options.titles ? [`--grep=${grepForTitles(options.titles)}`] : []),
    ...(options.project ? [`--project=${options.project}`] : []),
    ...(options.workers ? [`--workers=${options.workers}`] : []),
  ];
  const started = Date.now();
  const { exitCode, output } = await execFileAsync(process.execPath, args, {
    cwd: REPO_ROOT,
    env: suiteEnv(options, resultsFile, outputDir),
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 240_000,
  }).then(
    ({ stdout, stderr }) => ({ exitCode: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      exitCode: typeof error.code === 'number' ? error.code : -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}${typeof error.code === 'number' ? '' : `\n${error.message}`}`,
    }),
  );
  const durationMs = Date.now() - started;
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(resultsFile, 'utf8')) as JsonReport;
  } catch {
    throw new Error(`the suite run "${options.label}" wrote no JSON results (exit ${exitCode}):\n${output.slice(-3_000)}`);
  }
  return {
    label: options.label,
    tests: testsOf(report).map(toSuiteTest),
    exitCode,
    durationMs,
    globalErrors: (report.errors ?? []).map((error) => clean(error.message ?? '')),
    output,
  };
}

/** The suite sees only what a user would set: the target, keys and flags; nothing of the parent test run. */
function suiteEnv(options: SuiteRunOptions, resultsFile: string, outputDir: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|FORCE_COLOR|CI$)/.test(name)),
  );
  // A bundled run reads no keys from the environment; a target gets the demo keys unless told otherwise.
  const keys = options.keys ?? (options.baseUrl ? DEMO_KEYS : undefined);
  const keyEnv = keys ? Object.fromEntries(PLAN_IDS.filter((plan) => keys[plan].length > 0).map((plan) => [keyVariable(plan), keys[plan].join(',')])) : {};
  return {
    ...inherited,
    ...keyEnv,
    ...(options.baseUrl ? { PETSTORE_BASE_URL: options.baseUrl } : {}),
    PETSTORE_QUOTA_TESTS: options.quotaTests ? '1' : '0',
    PETSTORE_READ_ONLY: options.readOnly ? '1' : '0',
    PETSTORE_FRESH_KEYS: '1',
    PLAYWRIGHT_JSON_OUTPUT_FILE: resultsFile,
    ...(options.allReporters
      ? {
          PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(outputDir, 'reports', 'playwright'),
          PLAYWRIGHT_HTML_OPEN: 'never',
          PLAYWRIGHT_JUNIT_OUTPUT_FILE: path.join(outputDir, 'reports', 'junit.xml'),
          PETSTORE_CONFORMANCE_REPORT_DIR: path.join(outputDir, 'reports'),
        }
      : {}),
    ...options.env,
  };
}

function toSuiteTest({ spec, test, fullTitle }: JsonTestEntry): SuiteTest {
  const result = test.results?.at(-1);
  const annotations = [...(test.annotations ?? []), ...(result?.annotations ?? [])];
  const errors = (result?.errors ?? []).map((error) => clean(error.message ?? ''));
  return {
    title: spec.title,
    fullTitle,
    file: spec.file,
    line: spec.line,
    rules: citedRules(spec.title, annotations),
    status: result?.status ?? 'skipped',
    errors,
    namedRules: [...new Set(errors.flatMap(rulesNamedIn))],
    annotations,
    durationMs: result?.duration ?? 0,
  };
}

function clean(message: string): string {
  return withoutColours(message).trim();
}

export function failed(test: SuiteTest): boolean {
  return test.status === 'failed' || test.status === 'timedOut';
}
