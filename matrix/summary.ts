/** The one-screen summary `certify implementations.yaml` ends with: surprises first, then one line per implementation. */
import path from 'node:path';
import type { Matrix, MatrixImplementation } from './model.ts';
import { unexpectedFailuresOf, WITHOUT_EXPECTATIONS } from './regressions.ts';

export function summaryLines(matrix: Matrix, outputDir: string): string[] {
  const lines = ['', `Implementations matrix: ${matrix.asExpected ? 'as expected' : 'NOT as expected'}`];
  for (const implementation of matrix.implementations) {
    const { unexpectedPasses } = implementation.expectations;
    const { regressions, withoutExpectations } = unexpectedFailuresOf(implementation);
    if (regressions.length > 0) lines.push(`  ${implementation.name}: unexpected failure (regression): ${regressions.join(', ')}`);
    if (withoutExpectations.length > 0) lines.push(`  ${implementation.name}: failures (${WITHOUT_EXPECTATIONS}): ${withoutExpectations.join(', ')}`);
    if (unexpectedPasses.length > 0) lines.push(`  ${implementation.name}: now passes: remove it from the expectations: ${unexpectedPasses.join(', ')}`);
    if (implementation.state === undefined) lines.push(`  ${implementation.name}: could not certify: ${implementation.problem ?? 'no report'}`);
  }
  const width = Math.max(...matrix.implementations.map((implementation) => implementation.name.length), 4);
  for (const implementation of matrix.implementations) lines.push(`  ${implementation.name.padEnd(width)}  ${columnSummary(implementation)}`);
  const changed = matrix.implementations.filter((implementation) => implementation.changes && implementation.changes.regressed.length + implementation.changes.nowPass.length + implementation.changes.gapChanged.length > 0);
  for (const { name, changes } of changed) {
    const parts = [
      changes!.regressed.length > 0 ? `regressed ${changes!.regressed.map((change) => change.rule).join(', ')}` : '',
      changes!.nowPass.length > 0 ? `now pass ${changes!.nowPass.map((change) => change.rule).join(', ')}` : '',
      changes!.gapChanged.length > 0 ? `behaviour changed ${changes!.gapChanged.map((change) => change.rule).join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  since ${matrix.baseline}: ${name}: ${parts.join('; ')}`);
  }
  lines.push(`Matrix: ${path.relative(process.cwd(), path.join(outputDir, 'index.html')) || 'index.html'}`);
  return lines;
}

function columnSummary(implementation: MatrixImplementation): string {
  if (implementation.state === undefined) return 'could not certify';
  const must = implementation.must ? `, ${implementation.must.held}/${implementation.must.checked} MUST held (${implementation.must.total} bind)` : '';
  const expected = implementation.expectations.expectedFailures.length;
  const seconds = implementation.durationMs === undefined ? '' : `, ${(implementation.durationMs / 1000).toFixed(0)} s`;
  return `${implementation.verdictLabel}${must}${expected > 0 ? `, ${expected} expected failure${expected === 1 ? '' : 's'}` : ''}${seconds}`;
}
