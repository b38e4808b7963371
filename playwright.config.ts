/**
 * The conformance suite: `npm run conformance`. With PETSTORE_BASE_URL unset it starts the bundled reference
 * server on a free port with its clock sped up (BUNDLED_CLOCK_RATE: a minute window lasts a quarter of a
 * second, a day six minutes) and certifies it; with PETSTORE_BASE_URL set it certifies that target with the PETSTORE_API_KEY_<PLAN> keys.
 * See the README, "Running the conformance suite", for every variable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { keyVariable } from './lib/keys.ts';
import { PLAN_IDS } from './lib/plans.ts';
import { catalogue, rulesHash } from './lib/rules.ts';
import { errorLine } from './lib/cli/vocabulary.ts';
import { plansSpendingADayLast } from './specs/support/key-roles.ts';
import { planRule } from './specs/support/plan-quotas.ts';
import { establishRun, shareSettings } from './specs/support/run.ts';
import { BUNDLED_CLOCK_RATE, settingsFromEnv, type SuiteSettings } from './specs/support/settings.ts';
import { SUITE_VERSION } from './specs/support/suite-version.ts';

const run = await establishRun();
// Parsed once, in the runner: Playwright evaluates this file again in every worker, which takes the runner's.
const settings = run.settings ?? settingsOrExit();
if (!run.settings) shareSettings(run, settings);

/**
 * The daily-quota tests whose key other tests need too (one key per plan) run in a project of their own that is
 * the teardown of every other: Playwright starts it once all the others have finished, failed or not, as
 * Kubernetes conformance keeps its disruptive tests apart. Daily tests on a key of their own start at once.
 */
const DAYS_SPENT_LAST = 'daily-quotas-last';
const spentLast = plansSpendingADayLast(settings.keys, settings.quotaTests);
const spendsADayLast = spentLast.length > 0 ? new RegExp(`\\b(${spentLast.map(planRule).join('|')}) MUST .* in a day\\b`) : undefined;
const afterwards = spendsADayLast ? { teardown: DAYS_SPENT_LAST } : {};

const CONFORMANCE_REPORTER = './specs/reporter/conformance-reporter.ts';
const reporters: ReporterDescription[] = [
  ['list'],
  ['html', { open: 'never', outputFolder: 'reports/conformance/playwright' }],
  ['junit', { outputFile: 'reports/conformance/junit.xml' }],
  ['json', { outputFile: 'reports/conformance/results.json' }],
];
if (existsSync(new URL(CONFORMANCE_REPORTER, import.meta.url))) reporters.push([CONFORMANCE_REPORTER, { outputFolder: 'reports/conformance' }]);
// For a caller that runs the suite as a child and shows its progress (certify implementations.yaml).
if (process.env.PETSTORE_PROGRESS_FILE) reporters.push(['./specs/reporter/progress-reporter.ts']);

export default defineConfig({
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: 0,
  // A minute measurement may wait a third of this for a fresh window: against a real target that must cover a
  // whole minute and the second a Reset rounds up to (80 s), and the Retry-After after its burst (a minute) too.
  timeout: settings.bundled ? 30_000 : 240_000,
  // A hostile target (slow answers, endless 429s) cannot hold a run: it stops here, and the verdict says so.
  globalTimeout: settings.runTimeoutSeconds * 1000,
  outputDir: 'test-results/conformance',
  reporter: reporters,
  globalSetup: './specs/support/global-setup.ts',
  globalTeardown: './specs/support/global-teardown.ts',
  metadata: {
    targetUrl: settings.baseUrl,
    bundled: settings.bundled,
    readOnly: settings.readOnly,
    quotaTests: settings.quotaTests,
    suiteVersion: SUITE_VERSION,
    specVersion: catalogue.specVersion,
    gitCommit: gitCommit(),
    enterpriseQuota: settings.enterpriseQuota ? `${settings.enterpriseQuota.perMinute}/min, ${settings.enterpriseQuota.perDay}/day` : '',
    rulesHash: rulesHash(),
  },
  use: {
    baseURL: settings.baseUrl,
    // Traces record every request's headers, the Authorization header included: a key would leak into them.
    trace: 'off',
    // No extraHTTPHeaders: Playwright would add them to every request, a key included, even where a test
    // means to send none. Each request sets its own Authorization header.
  },
  // The measuring project comes first so its longest tests (a daily quota on a key of its own) start at once.
  projects: [
    { name: 'rate-limits', testDir: 'specs/rate-limits', ...(spendsADayLast ? { grepInvert: spendsADayLast } : {}), ...afterwards },
    { name: 'functional', testDir: 'specs/functional', ...afterwards },
    { name: 'generated', testDir: 'specs/generated', ...afterwards },
    ...(spendsADayLast ? [{ name: DAYS_SPENT_LAST, testDir: 'specs/rate-limits', testMatch: 'daily-quota.spec.ts', grep: spendsADayLast }] : []),
  ],
  webServer: settings.bundled
    ? {
        // The server falls back to the documented demo keys (lib/keys.ts), which the suite uses for a bundled run.
        // Keys are unset rather than passed: the JSON reporter writes webServer.env into results.json.
        command: `env ${PLAN_IDS.map((plan) => `-u ${keyVariable(plan)}`).join(' ')} npx tsx reference-server/main.ts`,
        port: run.port,
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          HOST: '127.0.0.1',
          PORT: String(run.port),
          PETSTORE_CLOCK_RATE: String(BUNDLED_CLOCK_RATE),
          PETSTORE_CLOCK_ANCHOR_MS: String(run.clockAnchorMs),
          ...(settings.enterpriseQuota
            ? { PETSTORE_ENTERPRISE_PER_MINUTE: String(settings.enterpriseQuota.perMinute), PETSTORE_ENTERPRISE_PER_DAY: String(settings.enterpriseQuota.perDay) }
            : {}),
          PETSTORE_LOG: 'off',
        },
      }
    : undefined,
});

/** A misconfigured run stops with one line naming the variable, not a stack trace. */
function settingsOrExit(): SuiteSettings {
  try {
    return settingsFromEnv(process.env, run);
  } catch (error) {
    process.stderr.write(`${errorLine('certify', error instanceof Error ? error.message : String(error))}\n`);
    process.exit(2);
  }
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}
