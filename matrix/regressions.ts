/**
 * What a failure no expectation lists is called. A regression is a rule that something said passed: the
 * implementation's expectations file (which lists every failure it knows of) or the baseline run. Without either
 * there was nothing to regress from: the rule is one of the failures of an implementation with no expectations file.
 */
import type { MatrixImplementation } from './model.ts';

export function isRegression(implementation: MatrixImplementation, rule: string): boolean {
  return implementation.expectations.file !== undefined || (implementation.changes?.regressed.some((change) => change.rule === rule) ?? false);
}

/** The unexpected failures of an implementation, split into regressions and failures no expectations file could list. */
export function unexpectedFailuresOf(implementation: MatrixImplementation): { regressions: string[]; withoutExpectations: string[] } {
  const failures = implementation.expectations.unexpectedFailures;
  return {
    regressions: failures.filter((rule) => isRegression(implementation, rule)),
    withoutExpectations: failures.filter((rule) => !isRegression(implementation, rule)),
  };
}

export const WITHOUT_EXPECTATIONS = 'no expectations file';
