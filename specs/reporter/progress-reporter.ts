/**
 * Progress for a caller that runs the suite as a child (`certify implementations.yaml`): after each test, the
 * tests done out of all and the rules failing so far, as one small JSON file the caller reads. On only when
 * PETSTORE_PROGRESS_FILE names the file.
 */
import { writeFileSync } from 'node:fs';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { findRule } from '../../lib/rules.ts';
import type { SuiteProgress } from '../../lib/processes/suite-progress.ts';
import { rulesNamedIn, titleCitation } from './test-records.ts';

export default class ProgressReporter implements Reporter {
  private readonly file = process.env.PETSTORE_PROGRESS_FILE ?? '';
  private readonly progress: SuiteProgress = { done: 0, total: 0, failingMust: [], finished: false };

  onBegin(_config: unknown, suite: Suite): void {
    this.progress.total = suite.allTests().length;
    this.write();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    this.progress.done++;
    if (result.status === 'failed' || result.status === 'timedOut') {
      // As the conformance report judges: the rules an error names, or the test's own when it names none.
      const cited = titleCitation(test.title)?.id;
      const failing = result.errors.flatMap((error) => {
        const named = rulesNamedIn(error.message ?? '');
        return named.length > 0 ? named : cited ? [cited] : [];
      });
      for (const id of failing) {
        if (findRule(id)?.level === 'MUST' && !this.progress.failingMust.includes(id)) this.progress.failingMust.push(id);
      }
    }
    this.write();
  }

  onEnd(_result: FullResult): void {
    this.progress.finished = true;
    this.write();
  }

  printsToStdio(): boolean {
    return false;
  }

  private write(): void {
    if (this.file) writeFileSync(this.file, JSON.stringify(this.progress));
  }
}

