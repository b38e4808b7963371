/**
 * The conformance report: one verdict per rule of fixtures/rules.yaml and a verdict for the run, written
 * after the run to reports/conformance/index.html and conformance.json. It reads only what the reporter API
 * gives (titles, annotations, errors, attachments with a body), so it works the same on a live run and on
 * `playwright merge-reports` of sharded blob reports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { catalogue } from '../../lib/rules.ts';
import { renderReport } from './report-html.ts';
import { redactDeep, reportRedactor } from './report-redaction.ts';
import type { TestRecord } from '../../lib/verdicts/test-record.ts';
import { createdPetsNote } from './created-pets.ts';
import { misconfiguredKeysNote } from './misconfigured-keys.ts';
import { bannedKeysNote, spentKeysNote } from './spent-keys.ts';
import { finishedRecord, plannedRecord } from './test-records.ts';
import { exitCodeFor } from './exit-code.ts';
import { buildReport, type RunMetadata } from '../../lib/verdicts/model.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { EvidenceInputError } from '../../lib/verdicts/evidence-files.ts';
import { errorLine } from '../../lib/cli/vocabulary.ts';
import { certifiedReport } from './certified-report.ts';

/** Bad input, as everywhere in the project (a report given as evidence that is not one). */
const USAGE_EXIT_CODE = 2;

export interface ConformanceReporterOptions {
  /**
   * Where the report goes; a relative path resolves against the config file's folder. Default reports/conformance.
   * PETSTORE_CONFORMANCE_REPORT_DIR overrides it, as PLAYWRIGHT_HTML_OUTPUT_DIR does for Playwright's own report.
   */
  outputFolder?: string;
  /** Print one line naming the verdict and the report's path when the run ends. Default true. */
  announce?: boolean;
}

export default class ConformanceReporter implements Reporter {
  private config: FullConfig | undefined;
  private readonly records = new Map<string, TestRecord>();
  private readonly annotations: Array<{ type: string; description?: string }> = [];
  private testsEnded = 0;

  constructor(private readonly options: ConformanceReporterOptions = {}) {}

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    for (const test of suite.allTests()) this.records.set(test.id, plannedRecord(test, config.rootDir));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A retried test reports once per attempt; the last attempt is the test's result.
    this.records.set(test.id, finishedRecord(test, result, this.config?.rootDir ?? process.cwd()));
    this.annotations.push(...result.annotations);
    this.testsEnded++;
  }

  onEnd(result: FullResult): void {
    // `playwright test --list` ends "passed" without running anything: keep the last real report.
    if (this.testsEnded === 0 && result.status === 'passed') return;
    const records = [...this.records.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    const meta = runMetadata(this.config);
    const run = { status: result.status, startedAt: result.startTime.toISOString(), durationMs: result.duration, generatedAt: new Date().toISOString() };
    let certified: CertifiedReport;
    try {
      certified = redactDeep(certifiedReport(buildReport(records, catalogue, meta, run), records, meta, process.env, new Date()));
    } catch (error) {
      if (!(error instanceof EvidenceInputError)) throw error;
      process.stderr.write(`${errorLine('certify', error.message)}\n`);
      process.once('exit', () => {
        process.exitCode = USAGE_EXIT_CODE;
      });
      return;
    }
    const report = certified;
    const spent = spentKeysNote(this.annotations);
    if (spent) report.verdict.notes.push(spent);
    const misconfigured = misconfiguredKeysNote(this.annotations);
    if (misconfigured) report.verdict.notes.push(misconfigured);
    const banned = bannedKeysNote(this.annotations);
    if (banned) report.verdict.notes.push(banned);
    const created = createdPetsNote(this.annotations);
    if (created) report.verdict.notes.push(created);
    const redactor = reportRedactor();
    const folder = this.outputFolder();
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'conformance.json'), redactor.text(`${JSON.stringify(report, null, 2)}\n`));
    writeFileSync(path.join(folder, 'index.html'), redactor.text(renderReport(report)));
    if (this.options.announce !== false) {
      const partly = report.verdict.partlyCheckedMust.map(({ rule, reason, setting }) => `  ${rule} partly checked: ${reason}${setting ? ` (to check it: ${setting})` : ''}\n`);
      const provenance = (report.certificate?.rules ?? []).filter((rule) => rule.parts.some((part) => part.by && part.by.label !== 'this run') || rule.verdict === 'not-in-scope').map((rule) => `  ${rule.line}\n`);
      process.stdout.write(`\nConformance: ${report.verdict.headline}\n${partly.join('')}${provenance.join('')}${spent ? `${spent}\n` : ''}${misconfigured ? `${misconfigured}\n` : ''}${banned ? `${banned}\n` : ''}${created ? `${created}\n` : ''}Report: ${path.relative(process.cwd(), path.join(folder, 'index.html'))}\n`);
    }
    const code = exitCodeFor(report.verdict.state, result.status, process.env);
    // Playwright ends with process.exit(its own code); Node emits 'exit' first and then exits with process.exitCode.
    process.once('exit', () => {
      process.exitCode = code;
    });
  }

  printsToStdio(): boolean {
    return false;
  }

  private outputFolder(): string {
    const fromEnv = process.env.PETSTORE_CONFORMANCE_REPORT_DIR?.trim();
    if (fromEnv) return path.resolve(fromEnv);
    const base = this.config?.configFile ? path.dirname(this.config.configFile) : process.cwd();
    return path.resolve(base, this.options.outputFolder ?? 'reports/conformance');
  }
}

/** The run's facts from the config's metadata (set by playwright.config.ts; carried through blob reports). */
function runMetadata(config: FullConfig | undefined): RunMetadata {
  const metadata = (config?.metadata ?? {}) as Record<string, unknown>;
  const text = (key: string, fallback: string): string => (typeof metadata[key] === 'string' && metadata[key] ? (metadata[key] as string) : fallback);
  const flag = (key: string): boolean => metadata[key] === true || metadata[key] === 'true';
  return {
    targetUrl: text('targetUrl', process.env.PETSTORE_BASE_URL ?? 'unknown'),
    bundled: flag('bundled'),
    readOnly: flag('readOnly'),
    quotaTests: flag('quotaTests'),
    suiteVersion: text('suiteVersion', 'unknown'),
    specVersion: text('specVersion', catalogue.specVersion),
    gitCommit: text('gitCommit', 'unknown'),
    rulesHash: text('rulesHash', 'unknown'),
    ...(text('enterpriseQuota', '') ? { enterpriseQuota: text('enterpriseQuota', '') } : {}),
  };
}
