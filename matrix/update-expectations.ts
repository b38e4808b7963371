/**
 * `--update-expectations`: each certified implementation's expectations file rewritten from the run. A failure
 * already listed keeps its reason and link; a new one gets the run's first message as a reason to edit.
 */
import path from 'node:path';
import type { RuleRow } from '../lib/verdicts/model.ts';
import type { ImplementationRun } from './build-matrix.ts';
import { writeExpectations, type ExpectedFailure } from './expectations-file.ts';
import type { ImplementationsFile } from './implementations-file.ts';

const REASON_LENGTH = 160;

export function updatedExpectations(runs: readonly ImplementationRun[], file: ImplementationsFile, write: (line: string) => void): ImplementationRun[] {
  return runs.map((run) => {
    const implementation = file.implementations.find((item) => item.name === run.name);
    if (!run.report || !implementation) return run;
    const failing = run.report.rules.filter((row) => row.verdict === 'fail' || row.verdict === 'warn');
    const kept = (row: RuleRow): ExpectedFailure | undefined =>
      run.expectations.find((item) => item.rule === row.id || (item.test !== undefined && row.tests.some((test) => test.title === item.test && test.outcome === 'failed')));
    const expectations = [...new Set(failing.map((row) => kept(row) ?? newExpectation(row, run.report!.generatedAt)))];
    const target = implementation.expectations ?? path.join(path.dirname(file.file), `${run.name}.expectations.yaml`);
    writeExpectations(target, run.name, expectations);
    const relative = path.relative(path.dirname(file.file), target);
    write(`certify: ${run.name}: wrote ${relative} (${expectations.length} expected failure${expectations.length === 1 ? '' : 's'})${implementation.expectations ? '' : `; add "expectations: ${relative}" to its entry`}`);
    return { ...run, expectations, expectationsFile: relative };
  });
}

function newExpectation(row: RuleRow, generatedAt: string): ExpectedFailure {
  const message = (row.failures[0] ?? row.warnings[0])?.text.replace(/\s+/g, ' ') ?? row.verdict;
  return { rule: row.id, reason: `${row.verdict === 'warn' ? 'warned' : 'failed'} on ${generatedAt.slice(0, 10)}: ${message.length > REASON_LENGTH ? `${message.slice(0, REASON_LENGTH)}…` : message}` };
}
