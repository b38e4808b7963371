/**
 * The exit code says the verdict, so a CI job can tell the three apart: 0 Conforming, 1 Not conforming,
 * 3 Not certified (2 is bad input, as everywhere in the project). PETSTORE_ACCEPT_NOT_CERTIFIED=1 lets a job
 * that cannot certify by design (read-only against production) accept "Not certified" as 0; the verdict line
 * still says what it is.
 */
import type { FullResult } from '@playwright/test/reporter';
import type { ExitCode } from '../../lib/docs/exit-codes.ts';
import type { RunState } from '../../lib/verdicts/model.ts';

export const EXIT_CODES = { conforming: 0, 'not-conforming': 1, incomplete: 3 } as const satisfies Record<RunState, number>;

/** A conformance run's exit codes, as `certify --help` and docs/reference/exit-codes.md give them. */
export const SUITE_EXIT_CODES: readonly ExitCode[] = [
  { code: EXIT_CODES.conforming, when: 'Conforming at MUST level, or Conforming within a declared scope (the rules or parts a team leaves out); also "Not certified" with PETSTORE_ACCEPT_NOT_CERTIFIED=1' },
  { code: EXIT_CODES['not-conforming'], when: 'Not conforming: a MUST rule failed (or the suite itself failed a test outside every rule)' },
  { code: 2, when: 'bad input: a malformed setting or flag, an unreachable target, evidence that is not a report; one line on stderr' },
  { code: EXIT_CODES.incomplete, when: 'Not certified: no MUST rule failed, but part of one was not checked (by any report of the evidence within its age limit)' },
];

export function exitCodeFor(state: RunState, status: FullResult['status'], env: Readonly<Record<string, string | undefined>>): number {
  if (state === 'incomplete') return env.PETSTORE_ACCEPT_NOT_CERTIFIED === '1' ? 0 : EXIT_CODES.incomplete;
  // A test that failed outside every MUST rule (a crash in the suite itself) still fails the job.
  if (state === 'conforming' && status !== 'passed') return EXIT_CODES['not-conforming'];
  return EXIT_CODES[state];
}
