/** X-RateLimit-Remaining counts down by one per admission in a window, or rises only as the quota comes back. */
import { describeDuration } from '../duration.ts';
import { countdownBreak, countdownWords } from '../../../lib/rate-limiter/countdown.ts';
import { SUMS_INPUT } from '../summed.ts';
import type { KeyAccount, QuotaWindow, WindowModel } from '../windows.ts';
import { rulesOf } from '../../../lib/checks/registry.ts';
import { mayHaveEnded } from '../../../lib/rate-limiter/reading.ts';
import { remainingStepProblem, stepBetween } from '../../../lib/rate-limiter/steps.ts';
import { refillAllowance } from '../../../lib/rate-limiter/refill.ts';
import { largest, smallest } from '../../../lib/extremes.ts';
import { shortestRefillWindowMs, sequentialPairs, unorderedInput, type Answer } from './answers.ts';
import { minuteAtScaleMs, shortWindowsText, withinWindowText } from './short-windows.ts';
import { skippedByUnread, unreadText } from './unread.ts';
import { count, describeWindow, seconds, verdict, type Verdict, type VerdictStatus } from './verdict.ts';

/**
 * Remaining must count down one by one, at least where nothing can have aged out yet (see windows.ts).
 * `bucketWindowMs`: the shortest window a bucket of the Limit may refill over, its Resets allowing one (see bucketBreak).
 */
export function remainingStatus(window: QuotaWindow, model: WindowModel, bucketWindowMs?: number, shortScale?: number): { status: VerdictStatus; message: string } {
  if (window.merged || window.remaining.length < 2) return { status: 'not-checked', message: 'too few admitted requests to compare' };
  const whole = countdownWords(window.remaining, window.limit);
  if (whole === undefined) return { status: 'pass', message: `Remaining went ${largest(window.remaining)} … ${smallest(window.remaining)}, one less per admitted request` };
  const shown = window.remaining.slice(0, 12).join(', ');
  if (skippedByUnread(window.remaining, window.limit, window.unread)) return lostValues(window, whole);
  if (model === 'unseen') return unseenKind(window, whole, shown);
  // Sums cannot show whether a bucket's Resets fit the answers: at short windows, where the fixed model is no evidence,
  // a bucket refilled over one minute may have said them, unless more than it holds came back within that minute.
  const mayBeBucket = shortScale !== undefined && window.fromSums === true && model === 'fixed' && (window.withinMinute?.admitted ?? 0) <= window.limit;
  const bucketMs = bucketWindowMs ?? (mayBeBucket ? minuteAtScaleMs(shortScale) : undefined);
  const asBucket = bucketMs === undefined ? undefined : bucketBreak(window, whole, bucketMs);
  if (asBucket) return asBucket;
  if (model === 'fixed' && window.seenFromStart && shortScale !== undefined) return countdownWithinMinute(window, whole, shortScale);
  if (model === 'fixed' && window.seenFromStart) return { status: 'fail', message: `Remaining went ${shown}${window.remaining.length > 12 ? ', …' : ''}: ${whole}` };
  if (!window.seenFromStart) return { status: 'not-checked', message: `${whole}; the window's start was not seen, so requests may have aged out of it` };
  if (window.fromSums) return { status: 'not-checked', message: `${whole}; requests may have aged out of this sliding window, and which came first is not known: ${SUMS_INPUT}` };
  if (window.earlyRemaining === undefined) return { status: 'inconclusive', message: `${whole}; no window ran out, so the run cannot tell this from requests ageing out` };
  const early = countdownWords(window.earlyRemaining, window.limit);
  if (early === undefined) return { status: 'pass', message: `Remaining counted down one by one until requests could age out` };
  if (skippedByUnread(window.earlyRemaining, window.limit, window.unread)) return lostValues(window, early);
  return { status: 'fail', message: `Remaining went ${shown}${window.remaining.length > 12 ? ', …' : ''}: ${early}` };
}

/**
 * A countdown broken where every Reset may be a bucket's (when it is full again), though no pair decided one after the
 * other showed it was one (requests always in flight together): a bucket hands a Remaining out again once a token came
 * back, and its Reset moves on as tokens are spent, so the values it skips here went to answers under the next Reset.
 * Only more repeats than the shortest window the Resets allow gives back over the window's answers, an admission
 * saying more is left than the limit, or a value skipped, is evidence: a bucket's Reset never moves back, so one
 * Reset's answers were decided one run after another, each saying one less than the one before or more as tokens
 * came back, and every value between its highest and its lowest was said.
 */
function bucketBreak(window: QuotaWindow, whole: string, bucketWindowMs: number): { status: VerdictStatus; message: string } | undefined {
  if (countdownBreak(window.remaining, window.limit)?.kind === 'above-limit') return undefined;
  // A value skipped where answers were lost may have gone to one of them: no evidence against a bucket.
  const said = [...new Set(window.remaining)];
  if (countdownBreak(said, window.limit)?.kind === 'skipped' && !skippedByUnread(said, window.limit, window.unread)) return undefined;
  const repeats = window.remaining.length - new Set(window.remaining).size;
  const spanMs = window.lastDoneAt - window.firstSentAt;
  const back = refillAllowance(window.limit, bucketWindowMs, spanMs);
  if (repeats > back) return undefined;
  return { status: 'not-checked', message: `${whole}; every Reset may be a bucket's, which gives up to ${back} of ${window.limit} back in the ${describeDuration(spanMs)} of this window's answers (${describeDuration(bucketWindowMs)} a window at the shortest), and its Reset moves on as tokens are spent` };
}

/** A countdown whose only break is values skipped, no more of them than the window's answers lost (unread.ts). */
function lostValues(window: QuotaWindow, broken: string): { status: VerdictStatus; message: string } {
  return { status: 'not-checked', message: `${broken}, but ${unreadText(window.unread)}, each with a Remaining value the client never read` };
}

/**
 * At a time scale of short windows (short-windows.ts), a window the fixed model holds to a countdown: only the
 * admissions back within one minute of its first request must count down under every kind that gives nothing back
 * under one Reset before then (a sliding log, a fixed window); a bucket's are excused before this (bucketBreak).
 */
function countdownWithinMinute(window: QuotaWindow, whole: string, shortScale: number): { status: VerdictStatus; message: string } {
  const early = window.withinMinute === undefined ? undefined : countdownWords(window.withinMinute.remaining, window.limit);
  if (early !== undefined && skippedByUnread(window.withinMinute!.remaining, window.limit, window.unread)) return lostValues(window, early);
  if (early !== undefined) return { status: 'fail', message: `Remaining of the admissions ${withinWindowText(shortScale)} went ${window.withinMinute!.remaining.slice(0, 12).join(', ')}${window.withinMinute!.remaining.length > 12 ? ', …' : ''}: ${early}` };
  return { status: 'not-checked', message: `${whole}, ${window.withinMinute === undefined ? 'and which admissions came' : `though not among those`} ${withinWindowText(shortScale)}${window.withinMinute === undefined ? ' is not known' : ''}: ${shortWindowsText(shortScale)}` };
}

/**
 * A countdown broken where nothing showed the limiter's kind (model unseen): a bucket or a sliding log gives quota
 * back within one Reset, as often as its window's length allows, and that length is not known either. Only what no
 * kind says is evidence: an admission saying more is left than the limit.
 */
function unseenKind(window: QuotaWindow, whole: string, shown: string): { status: VerdictStatus; message: string } {
  if (countdownBreak(window.remaining, window.limit)?.kind === 'above-limit') return { status: 'fail', message: `Remaining went ${shown}${window.remaining.length > 12 ? ', …' : ''}: ${whole}, which no kind of limiter says of an admission` };
  return { status: 'not-checked', message: `${whole}; no window refused, so nothing showed whether the limiter gives quota back within a window (a bucket or a sliding log does), and which came first is not known: ${unorderedInput(window)}` };
}

/**
 * A Reset that moves within a window (RL-7) splits it into several of one Reset each, whose Remaining values skip the
 * ones its other parts took: the countdown is no evidence of a Remaining gone wrong, and is not judged.
 */
export function remainingUnplaced(): Verdict {
  return verdict(
    'remaining-steps',
    rulesOf('remaining-steps'),
    'not-checked',
    'X-RateLimit-Remaining falls by one with each admitted request in a window',
    'X-RateLimit-Reset moved within a window (RL-7 fails), so answers cannot be told into windows by it, and which Remaining values one window said is not known.',
  );
}

export function remainingSteps(account: KeyAccount, shortScale?: number): Verdict {
  const title = 'X-RateLimit-Remaining falls by one with each admitted request in a window';
  const statuses = account.windows.map((window) => ({ window, ...remainingStatus(window, account.model, account.shortestBucketWindowMs, shortScale) }));
  const judged = statuses.filter(({ status }) => status !== 'not-checked');
  // Windows left unjudged for what their input cannot show, not for too few answers: why, in the windows' words.
  const unshown = statuses.filter(({ window }) => !window.merged && window.remaining.length >= 2);
  if (judged.length === 0 && unshown.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'not-checked', title, `No window could be judged: ${unshown[0]!.message}.`, unshown.map(({ window, message }) => `${describeWindow(window)}: ${message}`));
  if (judged.length === 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'not-checked', title, 'No window admitted two or more requests the client could compare.');
  const failed = judged.filter(({ status }) => status === 'fail');
  if (failed.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'fail', title, `${count(failed.length, 'window')} of ${judged.length} did not count down one by one.`, failed.map(({ window, message }) => `${describeWindow(window)}: ${message}`));
  const unsure = judged.filter(({ status }) => status === 'inconclusive');
  if (unsure.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'inconclusive', title, `${count(unsure.length, 'window')} repeated a Remaining value, which a sliding window may do as requests age out; no window ran out, so the run cannot tell.`, unsure.map(({ window, message }) => `${describeWindow(window)}: ${message}`));
  return verdict('remaining-steps', rulesOf('remaining-steps'), 'pass', title, `In all ${count(judged.length, 'window')}, Remaining fell by exactly one per admitted request.`);
}

/** A limiter that gives its quota back over time: Remaining falls by one, or rises by no more than can come back between two answers. */
export function refilledRemainingSteps(account: KeyAccount, answers: readonly Answer[]): Verdict {
  const title = 'X-RateLimit-Remaining falls by one with each admitted request, and rises only as the quota comes back';
  const windowMs = shortestRefillWindowMs(account);
  // Once Reset may have come, the quota may be back whole, whatever the limiter's kind.
  const pairs = sequentialPairs(answers).filter(([previous, next]) => stepBetween(previous.reading, next.reading, windowMs) !== 'new-window' && !mayHaveEnded(previous.reading.reset!, next.reading.receivedAt));
  const problems = pairs.flatMap(([previous, next]) => {
    const problem = remainingStepProblem(previous.reading, next.reading, windowMs, true);
    return problem === undefined ? [] : [`${seconds(next.doneAt)} into the run: ${problem}`];
  });
  if (pairs.length === 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'not-checked', title, 'No two admitted answers one after the other to compare.');
  if (problems.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'fail', title, `${count(problems.length, 'answer')} of ${pairs.length} broke the count.`, problems);
  return verdict('remaining-steps', rulesOf('remaining-steps'), 'pass', title, `Across ${count(pairs.length, 'pair')} of answers, Remaining fell by one or rose as the quota came back (${describeDuration(windowMs)} a window, learned from the run).`);
}
