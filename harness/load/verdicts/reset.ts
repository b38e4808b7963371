/** X-RateLimit-Reset stays put within a window, starts a new one once it came, or says when a bucket is full again. */
import { SUMS_CARRY, SUMS_INPUT, type SummedKey } from '../summed.ts';
import type { KeyAccount } from '../windows.ts';
import { rulesOf, unmetNeeds } from '../../../lib/checks/registry.ts';
import { AnchoredSteps } from '../../../lib/rate-limiter/steps.ts';
import { minuteWindowMs, sequentialPairs, type Answer } from './answers.ts';
import { count, seconds, verdict, type Verdict } from './verdict.ts';

/** X-RateLimit-Reset may stay put, start a new window once it has come, or move on to when a bucket is full again; nothing else (lib/rate-limiter/steps.ts). */
export function resetStable(account: KeyAccount, answers: readonly Answer[]): Verdict {
  const title = 'X-RateLimit-Reset stays put within a window (a bucket\'s: when it is full again)';
  const windowMs = minuteWindowMs(account);
  const pairs = sequentialPairs(answers);
  // Each step against the Reset its window first named: one end rounded apart by two nodes is no move, a drift is.
  const steps = new AnchoredSteps();
  const moves = pairs.flatMap(([previous, next]) => {
    const problem = steps.problem(previous.reading, next.reading, windowMs);
    return problem === undefined ? [] : [`${seconds(next.doneAt)} into the run: Remaining ${previous.reading.remaining} → ${next.reading.remaining}; ${problem}`];
  });
  if (pairs.length === 0) return verdict('reset-stable', rulesOf('reset-stable'), 'not-checked', title, 'No two admitted answers one after the other to compare.');
  if (moves.length > 0) return verdict('reset-stable', rulesOf('reset-stable'), 'fail', title, `Reset moved ${count(moves.length, 'time')} within a window (of ${pairs.length} answers one after the other).`, moves);
  return verdict('reset-stable', rulesOf('reset-stable'), 'pass', title, `Reset said what it means across all ${count(pairs.length, 'pair')} of answers one after the other.`);
}

/**
 * From a generator's sums, Reset is judged where the sums alone show it moved: back, to an earlier Reset of the same
 * Limit after a later one came back (no kind of limiter does that). Whether it stays put within a window needs
 * answers decided one after the other, which sums do not carry.
 */
export function resetFromSums(summed: SummedKey): Verdict {
  const title = 'X-RateLimit-Reset stays put within a window (a bucket\'s: when it is full again)';
  const rules = rulesOf('reset-stable');
  if (summed.resetMovedBack.length > 0) return verdict('reset-stable', rules, 'fail', title, `Reset moved back ${count(summed.resetMovedBack.length, 'time')}: an earlier Reset named after a later one had come back.`, summed.resetMovedBack);
  return verdict('reset-stable', rules, 'not-checked', title, `No Reset moved back between windows; within a window, ${unmetNeeds('reset-stable', SUMS_CARRY, 'per-window sums')} (${SUMS_INPUT}).`);
}
