/**
 * What "the same verdicts on both engines" means: per key, every check's status, with one allowance. A check that
 * needs the client to have paced itself a certain way (a compliant client that had to wait out a 429, for RL-3;
 * answers that came one after the other, for Remaining's and Reset's steps) can be reached by one engine's
 * clients and not by the other's: generators of several keep budgets of their own, and many keys at once leave no
 * answer alone. So "passed on one, not reached on the other" is no disagreement there; passed against failed is.
 */
import type { LoadSummary } from '../../../harness/load/summary.ts';

const REACHED_BY_PACING = new Set(['retry-after-admitted', 'remaining-steps', 'reset-stable']);

/** Per key, every check's status. */
export function statuses(summary: LoadSummary): Record<string, Record<string, string>> {
  return Object.fromEntries(summary.keys.map((key) => [key.label, Object.fromEntries(key.verdicts.map((v) => [v.check, v.status]))]));
}

/** The engine's statuses, with each pacing-reached check that one side passed and the other did not reach taken as the built-in's. */
export function alike(engine: LoadSummary, builtin: LoadSummary): Record<string, Record<string, string>> {
  const reference = statuses(builtin);
  return Object.fromEntries(
    Object.entries(statuses(engine)).map(([label, checks]) => [
      label,
      Object.fromEntries(
        Object.entries(checks).map(([check, status]) => {
          const other = reference[label]?.[check];
          const unreached = REACHED_BY_PACING.has(check) && [status, other].includes('not-checked') && [status, other].includes('pass');
          return [check, unreached ? (other as string) : status];
        }),
      ),
    ]),
  );
}
