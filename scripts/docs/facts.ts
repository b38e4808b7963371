/**
 * The numbers the hand-written pages state, each computed from the code it describes: the catalogue, the
 * bundled server's settings, the verdict model, the broken servers and legitimate variants of test/. A page
 * marks such a number `<!-- generated:NAME -->…<!-- /generated -->` (scripts/docs/fragments.ts), and
 * `npm run docs:reference` writes the value below; a number the code no longer gives fails `npm run docs:check`.
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { catalogue, rulesHash } from '../../lib/rules.ts';
import { buildReport, type ConformanceReport } from '../../lib/verdicts/model.ts';
import type { TestRecord } from '../../lib/verdicts/test-record.ts';
import { DEFAULT_ANONYMOUS_PER_MINUTE } from '../../reference-server/config.ts';
import { DEFAULT_START_TIMEOUT_SECONDS } from '../../matrix/implementations-file.ts';
import { MATRIX_CLOCK_RATE, recordedMatrixTable } from '../../matrix/clients/client-matrix.ts';
import { BAN_AFTER_REFUSALS, BAN_MINUTES } from '../../reference-server/limiter.ts';
import {
  BUNDLED_CLOCK_RATE,
  BUNDLED_ENTERPRISE_QUOTA,
  BUNDLED_QUOTA_BUDGET_SECONDS,
  BUNDLED_RUN_TIMEOUT_SECONDS,
  DEFAULT_GENERATED_RUNS,
  DEFAULT_QUOTA_BUDGET_SECONDS,
  DEFAULT_RUN_TIMEOUT_SECONDS,
} from '../../specs/support/settings.ts';
import { BUNDLED_RUN_MEASURED, NIGHTLY_QUOTA_BUDGET_SECONDS, NIGHTLY_RUN_TIMEOUT_SECONDS } from '../../lib/docs/ci-figures.ts';
import { FAULTS } from '../../test/suite/support/faults.ts';
import { ownTests, suiteTests } from './listings.ts';
import { inWords, nodeEngines, nodeLines, packedSize } from './package-facts.ts';

export interface Fact {
  /** Where the number comes from, for a reader of this file and in the messages of test/docs/numbers.spec.ts. */
  from: string;
  value: string;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1_440;
/** The title every legitimate-server test of test/suite/ begins with. */
export const LEGITIMATE_SERVER_TITLE = 'legitimate server "';

export async function docFacts(): Promise<Record<string, Fact>> {
  const ofLevel = (level: string): number => catalogue.rules.filter((rule) => rule.level === level).length;
  const bundled = bundledConformingReport();
  const legitimateServers = (await ownTests()).filter((t) => t.title.startsWith(LEGITIMATE_SERVER_TITLE)).length;
  const bundledWindowMs = MINUTE_MS / BUNDLED_CLOCK_RATE;
  const size = await packedSize();
  return {
    rules: { from: 'fixtures/rules.yaml', value: count(catalogue.rules.length) },
    'must-rules': { from: 'fixtures/rules.yaml: MUST rules', value: count(ofLevel('MUST')) },
    'should-rules': { from: 'fixtures/rules.yaml: SHOULD rules', value: count(ofLevel('SHOULD')) },
    'gap-rules': { from: 'fixtures/rules.yaml: GAP rules', value: count(ofLevel('GAP')) },
    'bundled-must-rules': { from: 'the verdict model: the MUST rules a bundled run certifies', value: count(bundled.rules.filter((row) => row.level === 'MUST' && row.subject === 'service' && row.applies).length) },
    'bundled-pass': { from: 'the verdict model: rules that pass in a conforming bundled run', value: count(bundled.counts.rules.pass) },
    'bundled-pass-should': { from: 'the verdict model: SHOULD rules that pass in a conforming bundled run', value: count(bundled.counts.byLevel.SHOULD.pass) },
    'bundled-observed': { from: 'the verdict model: rules observed in a bundled run', value: count(bundled.counts.rules.observed) },
    'bundled-not-run': { from: 'the verdict model: rules a bundled run does not run', value: count(bundled.counts.rules['not-run']) },
    'bundled-verdict-output': {
      from: "the verdict model: the conformance reporter's last lines after a conforming bundled run",
      value: `\n\`\`\`text\nConformance: ${bundled.verdict.headline}\nReport: reports/conformance/index.html\n\`\`\`\n`,
    },
    'bundled-clock-rate': { from: 'BUNDLED_CLOCK_RATE (specs/support/settings.ts)', value: count(BUNDLED_CLOCK_RATE) },
    'bundled-window-ms': { from: 'a minute at BUNDLED_CLOCK_RATE, in milliseconds', value: count(bundledWindowMs) },
    'bundled-day-minutes': { from: 'a day at BUNDLED_CLOCK_RATE, in minutes', value: count(DAY_MINUTES / BUNDLED_CLOCK_RATE) },
    'bundled-business-day-seconds': { from: "Business's minute windows in a day at BUNDLED_CLOCK_RATE, in seconds", value: count((dayWindows('business') * bundledWindowMs) / 1000) },
    'bundled-enterprise-per-minute': { from: 'BUNDLED_ENTERPRISE_QUOTA (specs/support/settings.ts)', value: count(BUNDLED_ENTERPRISE_QUOTA.perMinute) },
    'bundled-enterprise-per-day': { from: 'BUNDLED_ENTERPRISE_QUOTA (specs/support/settings.ts)', value: count(BUNDLED_ENTERPRISE_QUOTA.perDay) },
    'quota-budget-seconds': { from: 'DEFAULT_QUOTA_BUDGET_SECONDS (specs/support/settings.ts)', value: count(DEFAULT_QUOTA_BUDGET_SECONDS) },
    'bundled-quota-budget-seconds': { from: 'BUNDLED_QUOTA_BUDGET_SECONDS (specs/support/settings.ts)', value: count(BUNDLED_QUOTA_BUDGET_SECONDS) },
    'run-timeout-seconds': { from: 'DEFAULT_RUN_TIMEOUT_SECONDS (specs/support/settings.ts)', value: count(DEFAULT_RUN_TIMEOUT_SECONDS) },
    'nightly-quota-budget-seconds': { from: 'NIGHTLY_QUOTA_BUDGET_SECONDS (lib/docs/ci-figures.ts)', value: String(NIGHTLY_QUOTA_BUDGET_SECONDS) },
    'nightly-run-timeout-seconds': { from: 'NIGHTLY_RUN_TIMEOUT_SECONDS (lib/docs/ci-figures.ts)', value: String(NIGHTLY_RUN_TIMEOUT_SECONDS) },
    'bundled-run-quiet-seconds': { from: 'BUNDLED_RUN_MEASURED (lib/docs/ci-figures.ts), as docs/benchmarks.md measured it', value: String(BUNDLED_RUN_MEASURED.quietSeconds) },
    'bundled-run-busy-seconds': { from: 'BUNDLED_RUN_MEASURED (lib/docs/ci-figures.ts)', value: `${BUNDLED_RUN_MEASURED.busySeconds.least} to ${BUNDLED_RUN_MEASURED.busySeconds.most}` },
    'bundled-run-busy-load': { from: 'BUNDLED_RUN_MEASURED (lib/docs/ci-figures.ts)', value: `${BUNDLED_RUN_MEASURED.busyLoadAverage.least} to ${BUNDLED_RUN_MEASURED.busyLoadAverage.most}` },
    'bundled-run-timeout-seconds': { from: 'BUNDLED_RUN_TIMEOUT_SECONDS (specs/support/settings.ts)', value: count(BUNDLED_RUN_TIMEOUT_SECONDS) },
    'generated-runs': { from: 'DEFAULT_GENERATED_RUNS (specs/support/settings.ts)', value: count(DEFAULT_GENERATED_RUNS) },
    'server-ban-after-refusals': { from: 'BAN_AFTER_REFUSALS (reference-server/limiter.ts)', value: count(BAN_AFTER_REFUSALS) },
    'server-ban-minutes': { from: 'BAN_MINUTES (reference-server/limiter.ts)', value: count(BAN_MINUTES) },
    'server-ban-seconds': { from: 'BAN_MINUTES (reference-server/limiter.ts), in seconds', value: count(BAN_MINUTES * 60) },
    'server-anonymous-per-minute': { from: 'DEFAULT_ANONYMOUS_PER_MINUTE (reference-server/config.ts)', value: count(DEFAULT_ANONYMOUS_PER_MINUTE) },
    'enterprise-default-per-minute': { from: 'referenceDefault of Enterprise in fixtures/plans.yaml', value: count(plans.enterprise.referenceDefault.perMinute) },
    'enterprise-default-per-day': { from: 'referenceDefault of Enterprise in fixtures/plans.yaml', value: count(plans.enterprise.referenceDefault.perDay) },
    'client-matrix': { from: 'matrix/clients/expectations.yaml: what npm run matrix:clients recorded', value: `\n${recordedMatrixTable()}\n` },
    'client-matrix-clock-rate': { from: 'MATRIX_CLOCK_RATE (matrix/clients/client-matrix.ts)', value: count(MATRIX_CLOCK_RATE) },
    'matrix-start-timeout-seconds': { from: 'DEFAULT_START_TIMEOUT_SECONDS (matrix/implementations-file.ts)', value: count(DEFAULT_START_TIMEOUT_SECONDS) },
    'free-day-windows': { from: "fixtures/plans.yaml: Free's minute windows in a day", value: count(dayWindows('free')) },
    'pro-day-windows': { from: "fixtures/plans.yaml: Pro's minute windows in a day", value: count(dayWindows('pro')) },
    'business-day-windows': { from: "fixtures/plans.yaml: Business's minute windows in a day", value: count(dayWindows('business')) },
    'broken-servers': { from: 'FAULTS (test/suite/support/faults.ts)', value: count(FAULTS.length) },
    'broken-servers-rules': { from: 'FAULTS (test/suite/support/faults.ts): the MUST rules they break', value: count(new Set(FAULTS.map((fault) => fault.rule)).size) },
    'suite-tests': { from: 'the tests of the conformance suite (playwright.config.ts), as --list finds them', value: count((await suiteTests()).length) },
    'package-mb': { from: 'npm pack --dry-run: the tarball, in MB to one decimal', value: count(megabytes(size.packed)) },
    'package-unpacked-mb': { from: 'npm pack --dry-run: its files unpacked, in MB to one decimal', value: count(megabytes(size.unpacked)) },
    'node-lines': { from: 'engines.node of package.json: its major lines', value: inWords(nodeLines()) },
    'node-lines-or': { from: 'engines.node of package.json: its major lines, any one of them', value: inWords(nodeLines(), 'or') },
    'node-engines': { from: 'engines.node of package.json, as written', value: `\`${nodeEngines()}\`` },
    'legitimate-servers': { from: `the tests of test/ titled ${LEGITIMATE_SERVER_TITLE}…"`, value: count(legitimateServers) },
  };
}

/** Minute windows a plan's documented day takes: the day's quota over the minute's, rounded up. */
function dayWindows(plan: PlanId): number {
  const quota = plans[plan].documented;
  if (!quota) throw new Error(`fixtures/plans.yaml: ${plan} documents no quota`);
  return Math.ceil(quota.perDay / quota.perMinute);
}

/** To one decimal: a size that changes at every commit by a few kB is stated as it stays. */
function megabytes(bytes: number): number {
  return Math.round(bytes / 100_000) / 10;
}

function count(value: number | string): string {
  const number = Number(value);
  if (!Number.isFinite(number)) throw new Error(`a fact is not a number: ${String(value)}`);
  return number.toLocaleString('en');
}

/**
 * The report the suite's own verdict model writes for a bundled run in which every test of every rule that
 * binds the service passed (GAP rules observed): the bundled server states its Enterprise quota, so every
 * conditional rule binds.
 */
function bundledConformingReport(): ConformanceReport {
  const records = catalogue.rules
    .filter((rule) => rule.subject === 'service')
    .map((rule): TestRecord => {
      const title = `${rule.id} ${rule.level} test`;
      const note = [{ rule: rule.id, text: 'observed' }];
      return {
        id: rule.id, title, fullTitle: title, file: 'x.spec.ts', line: 1, project: 'p', outcome: 'passed', durationMs: 1, retries: 0,
        rules: [rule.id], unknownRules: [], titleLevel: rule.level, skipReason: undefined, warnings: [],
        observations: rule.level === 'GAP' ? note : [], gists: rule.level === 'GAP' ? note : [],
        unchecked: [], throttled: [], generated: [], failures: [], ranThrough: false, judgedWhole: [], evidence: [],
      };
    });
  const enterpriseQuota = `${count(BUNDLED_ENTERPRISE_QUOTA.perMinute)}/min, ${count(BUNDLED_ENTERPRISE_QUOTA.perDay)}/day`;
  const meta = { targetUrl: 'bundled', bundled: true, readOnly: false, quotaTests: true, suiteVersion: '', specVersion: catalogue.specVersion, gitCommit: '', rulesHash: rulesHash(), enterpriseQuota };
  const at = new Date(0).toISOString();
  const report = buildReport(records, catalogue, meta, { status: 'passed', startedAt: at, durationMs: 0, generatedAt: at });
  if (!report.verdict.conforming) throw new Error(`a bundled run passing every test is not conforming: ${report.verdict.headline}`);
  return report;
}
