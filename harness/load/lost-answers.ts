/**
 * A run that knows it lost answers (a Locust worker whose last report never reached the master) proves little
 * from what did arrive: a window's count, its countdown and its first refusal may all lack their last seconds.
 * Only an over-admission stands, since answers that arrived were admitted whatever else happened; every other
 * pass, warning or failure becomes inconclusive, with the cause.
 */
import type { CheckId, Verdict } from './verdicts/verdict.ts';

/** Checks whose failure is an over-admission: more answers could only add to it. */
const STANDS_WITH_FEWER_ANSWERS: ReadonlySet<CheckId> = new Set(['minute-max', 'daily-quota']);

export function withLostAnswers(verdicts: readonly Verdict[], lost: string | undefined): Verdict[] {
  if (lost === undefined) return [...verdicts];
  return verdicts.map((verdict) => {
    const stands = verdict.status === 'observed' || verdict.status === 'not-checked' || (verdict.status === 'fail' && STANDS_WITH_FEWER_ANSWERS.has(verdict.check));
    return stands ? verdict : { ...verdict, status: 'inconclusive', detail: `${verdict.detail} Partly checked: ${lost}.` };
  });
}
