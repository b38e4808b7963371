/**
 * The exit code says the verdict, so a CI job can tell the three apart: 0 Conforming, 1 Not conforming,
 * 3 Not certified (2 is bad input, as everywhere in the project). PETSTORE_ACCEPT_NOT_CERTIFIED=1 lets a job
 * that cannot certify by design (read-only against production) accept "Not certified" as 0; the verdict line
 * still says what it is.
 */
import type { FullResult } from '@playwright/test/reporter';
import type { RunState } from '../../lib/verdicts/model.ts';

export const EXIT_CODES = { conforming: 0, 'not-conforming': 1, incomplete: 3 } as const satisfies Record<RunState, number>;

export function exitCodeFor(state: RunState, status: FullResult['status'], env: Readonly<Record<string, string | undefined>>): number {
  if (state === 'incomplete') return env.PETSTORE_ACCEPT_NOT_CERTIFIED === '1' ? 0 : EXIT_CODES.incomplete;
  // A test that failed outside every MUST rule (a crash in the suite itself) still fails the job.
  if (state === 'conforming' && status !== 'passed') return EXIT_CODES['not-conforming'];
  return EXIT_CODES[state];
}
