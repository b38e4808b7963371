/**
 * `petstore-conformance certify`: the conformance suite (Playwright Test, the package's own
 * playwright.config.ts) against a base URL, with every report written under the caller's working directory.
 * The exit code is the run's own, passed through unchanged.
 */
import path from 'node:path';
import { runNode } from '../lib/processes/child.ts';
import { certifyImplementations } from './certify-implementations.ts';
import { reportEnv, suiteNodeArgs } from '../lib/processes/suite-process.ts';
import { writeJobSummary } from './job-summary-file.ts';
import { writeBadge } from './badge-file.ts';
import { keysFileFlag, parseFlags } from './flags.ts';
import { exitCodeHelp } from '../lib/docs/exit-codes.ts';
import { SUITE_EXIT_CODES } from '../specs/reporter/exit-code.ts';
import { MATRIX_EXIT_CODES } from '../matrix/certify-many.ts';
import { UsageError } from './usage-error.ts';
import { commandFlags, flagForms, notTakenHelp, type FlagName } from '../lib/cli/vocabulary.ts';

/** certify's flags (the vocabulary: lib/cli/vocabulary.ts); a new flag of certify is added to this list. */
export const CERTIFY_FLAGS = commandFlags('certify', ['base-url', 'keys-file', 'read-only', 'quota-tests', 'quota-budget', 'timeout', 'clock-rate', 'output', 'summary', 'evidence', 'max-age', 'out-of-scope', 'staging-url', 'label', 'help']);
import { certificateEnv } from './certificate-flags.ts';

export const CERTIFY_HELP = `usage: petstore-conformance certify [--base-url URL] [options] [-- <Playwright flags>]
       petstore-conformance certify IMPLEMENTATIONS.yaml [--parallel N] [--baseline FILE] [--update-expectations] [--output DIR]

Runs the conformance suite and prints one verdict line, e.g. "Conformance: Conforming at MUST level: ...".
  --base-url URL   the implementation to certify, /v1 included (same as PETSTORE_BASE_URL); without it,
                   the bundled reference server is started and certified
  --keys-file F    the keys, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  --read-only      send no request that creates pets (same as PETSTORE_READ_ONLY=1): verdict "not certified"
  --quota-tests    include the tests that use up a key's daily quota (same as PETSTORE_QUOTA_TESTS=1)
  --quota-budget S seconds the daily-quota tests may take (same as PETSTORE_QUOTA_BUDGET_SECONDS); a test
                   estimated longer is skipped and named. A real day: docs/how-to/certify-in-ci.md
  --timeout S      seconds the whole run may take; it then ends with a verdict on what it checked (same as
                   PETSTORE_RUN_TIMEOUT_SECONDS)
  --clock-rate N   the target's clock runs N times faster than real time, as a server started with
                   PETSTORE_CLOCK_RATE=N (serve --clock-rate N) does (same as PETSTORE_TARGET_CLOCK_RATE)
  --output DIR     where the reports go (default ./reports/conformance): index.html, conformance.json,
                   junit.xml, results.json, badge.svg, playwright/index.html
  --summary FILE   also append the verdict and a table of failing rules, in Markdown, to FILE (in a GitHub
                   Actions job: --summary "$GITHUB_STEP_SUMMARY"); PETSTORE_SPEC_URL, when set, links rules
                   to their section of the spec
A certificate from this run and earlier reports of the same target (docs/how-to/certify-in-ci.md):
  --evidence PATH  an earlier report (conformance.json, a load summary.json) or a folder of them; repeatable.
                   A part of a rule counts as checked when some report within --max-age checked it; a
                   failure within it fails unless a later report of the same part held
  --max-age AGE    how old a report's check may be and count: 90m, 36h, 7d (default), 2w
  --out-of-scope ID  a rule or part the team leaves out (PLAN-BUSINESS:day); repeatable. Reported as not in
                   scope, never passed: the verdict is then "Conforming within that scope" (exit 0)
  --staging-url URL  this target's staging: its reports cover what this target's own did not check (VER-2)
  --label WORDS    what a later certificate calls this run ("nightly run"; same as PETSTORE_RUN_LABEL)
  -h, --help       this text
Keys: PETSTORE_API_KEY_FREE, _PRO, _BUSINESS, _ENTERPRISE (comma-separated per plan). Every other variable
(PETSTORE_FRESH_KEYS, ...) is in docs/reference/settings.md.
${notTakenHelp('certify')}
${exitCodeHelp(SUITE_EXIT_CODES)}
After --, any Playwright Test flag: --grep, --shard, --reporter, --workers, --project, ...

With an implementations file, every implementation it lists is certified by the same suite, each in
reports/certify/<name>/ with a badge.svg, and the matrix of all of them is written to reports/certify/
(index.html, matrix.json). The file's format: docs/how-to/certify-several-implementations.md.
  --parallel N            certify N implementations at a time (default 1); refused when two share a key
  --baseline FILE         a matrix.json or conformance.json of an earlier run: list what changed since
  --update-expectations   rewrite each implementation's expectations file from this run
  --output DIR            where the matrix goes (default ./reports/certify)
${exitCodeHelp(MATRIX_EXIT_CODES)}`;

export interface CertifyOptions {
  help: boolean;
  env: NodeJS.ProcessEnv;
  /** Absolute: every report and artifact of the run goes under it. */
  outputDir: string;
  /** Absolute; undefined when no summary was asked for. */
  summaryFile: string | undefined;
  playwrightArgs: string[];
}

export function parseCertifyArgs(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CertifyOptions {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const playwrightArgs = split === -1 ? [] : args.slice(split + 1);
  const { values, positionals } = parseFlags(CERTIFY_FLAGS, own);
  if (positionals.length > 0) throw new UsageError(`certify: unexpected argument "${positionals[0]}"; an implementations file comes first (certify implementations.yaml), Playwright flags go after --`);
  if (values['base-url'] !== undefined && values['base-url'].trim() === '') throw new UsageError('certify: --base-url needs a URL, e.g. --base-url http://127.0.0.1:8080/v1');
  if (values.output !== undefined && values.output.trim() === '') throw new UsageError('certify: --output needs a folder, e.g. --output reports/conformance');
  if (values.summary !== undefined && values.summary.trim() === '') throw new UsageError('certify: --summary needs a file, e.g. --summary "$GITHUB_STEP_SUMMARY"');
  const certificate = certificateEnv(values, env, cwd);
  const seconds = (flag: FlagName, variable: string, text: string | undefined): Record<string, string> => {
    if (text === undefined) return {};
    if (!/^\d+(\.\d+)?$/.test(text.trim()) || Number(text) <= 0) throw new UsageError(`certify: --${flag} takes ${flagForms(flag)} above 0, not "${text}"`);
    return { [variable]: text.trim() };
  };
  return {
    help: values.help === true,
    env: {
      ...env,
      ...(values['base-url'] ? { PETSTORE_BASE_URL: values['base-url'] } : {}),
      ...(values['read-only'] ? { PETSTORE_READ_ONLY: '1' } : {}),
      ...(values['quota-tests'] ? { PETSTORE_QUOTA_TESTS: '1' } : {}),
      ...seconds('quota-budget', 'PETSTORE_QUOTA_BUDGET_SECONDS', values['quota-budget']),
      ...seconds('timeout', 'PETSTORE_RUN_TIMEOUT_SECONDS', values.timeout),
      // One variable for one clock: a target started with PETSTORE_CLOCK_RATE in this environment runs at it.
      ...seconds('clock-rate', 'PETSTORE_TARGET_CLOCK_RATE', values['clock-rate'] ?? (env.PETSTORE_TARGET_CLOCK_RATE === undefined ? env.PETSTORE_CLOCK_RATE : undefined)),
      ...certificate,
      ...keysFileFlag('certify', values['keys-file'], env),
    },
    outputDir: path.resolve(cwd, values.output ?? path.join('reports', 'conformance')),
    summaryFile: values.summary === undefined ? undefined : path.resolve(cwd, values.summary),
    playwrightArgs,
  };
}

export async function certify(args: readonly string[]): Promise<number> {
  if (args[0] !== undefined && /\.ya?ml$/i.test(args[0])) return certifyImplementations(args, process.env, process.cwd(), CERTIFY_HELP);
  const options = parseCertifyArgs(args, process.env, process.cwd());
  if (options.help) {
    process.stdout.write(`${CERTIFY_HELP}\n`);
    return 0;
  }
  const code = await runNode(suiteNodeArgs(options.outputDir, options.playwrightArgs), { ...options.env, ...reportEnv(options.outputDir) });
  writeBadge(options.outputDir);
  if (options.summaryFile) writeJobSummary(options.outputDir, options.summaryFile, process.env);
  return code;
}
