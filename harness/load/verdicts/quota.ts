/** The plan's quota: no window admits more than its limit, a window refuses only once it was used, and the day's quota holds. */
import { plans, type PlanId } from '../../../lib/plans.ts';
import { describeDuration } from '../duration.ts';
import type { DaySegment } from '../days.ts';
import type { KeyResult } from '../runner.ts';
import { SUMS_INPUT } from '../summed.ts';
import { RUN_SLACK_MS, type KeyAccount, type QuotaWindow, type WindowLength, type WindowModel } from '../windows.ts';
import { bucketCapacity } from '../../../lib/rate-limiter/bucket-capacity.ts';
import { firmlyPastLimit } from '../../../lib/rate-limiter/window-accountant.ts';
import { rulesOf } from '../../../lib/checks/registry.ts';
import { shortestRefillWindowMs, unorderedInput, type Answer } from './answers.ts';
import { shortWindowsText, withinWindowText } from './short-windows.ts';
import { shortByUnread, UNREAD_CAUSES, unreadText } from './unread.ts';
import { count, describeWindow, seconds, verdict, type JudgeContext, type Verdict, type VerdictStatus, type WindowCheck } from './verdict.ts';

/**
 * Over-admission, judged only where no request can have aged out (see windows.ts): more than the limit admitted
 * well before a window's Reset (whatever the limiter's kind, refused or not) or before its first refusal. Admissions
 * the target itself said it had no room for, in a window not seen from its start, are no evidence alone (emptiedUnseenText).
 */
export function overAdmission(window: QuotaWindow, model: WindowModel, shortScale?: number): { status: VerdictStatus; message: string } {
  if (window.merged) return { status: 'inconclusive', message: `${window.admitted} admitted under one Reset: several sub-second windows share it` };
  if (shortScale !== undefined && overWithinMinute(window)) return { status: 'fail', message: `${window.withinMinute?.admitted} admitted under one Reset ${withinWindowText(shortScale)}, before any kind of limiter can have given one back; limit ${window.limit}` };
  if (shortScale === undefined && model === 'fixed' && window.seenFromStart && window.admitted > window.limit) {
    const before = window.admittedBeforeFirstRefusal;
    return { status: 'fail', message: `${window.admitted} admitted${before !== undefined ? `, ${before} of them before the first 429` : ''}; limit ${window.limit}` };
  }
  if (model === 'sliding' && window.admittedEarly !== undefined && window.admittedEarly > window.limit) {
    return { status: 'fail', message: `${window.admittedEarly} admitted before the window's first request could have aged out; limit ${window.limit}` };
  }
  if (firmlyPastLimit(window) > 0) return { status: 'fail', message: firmlyOverText(window) };
  if (shortScale !== undefined && crossingUntold(window, model, shortScale)) return { status: 'not-checked', message: `${window.admitted} admitted under one Reset, ${withinMinuteCount(window, shortScale)}: ${shortWindowsText(shortScale)}` };
  if (model === 'fixed' && window.admitted > window.limit && window.admittedWhenEmpty > 0) return { status: 'not-checked', message: emptiedUnseenText(window) };
  if (model === 'unseen' && window.admitted > window.limit) return { status: 'not-checked', message: `${window.admitted} admitted under one Reset, and no window refused: whether the limiter gave quota back within it (a bucket or a sliding log does) is not shown (${unorderedInput(window)})` };
  if (window.admitted > window.limit && window.fromSums) return { status: 'not-checked', message: `${window.admitted} admitted under one Reset of a sliding window: how many before any could age out needs their order (${SUMS_INPUT})` };
  if (window.admitted > window.limit) return { status: 'pass', message: `${window.admitted} admitted under one Reset, as requests aged out (a sliding window)` };
  return { status: 'pass', message: `${window.admitted} of ${window.limit} admitted` };
}

/**
 * A window not seen from its start that admitted after saying 0 were left, but none of it firmly before its Reset: a
 * fixed window would have broken its limit, yet the run's fixed model is only that nothing was seen admitted after a
 * refusal under the same Reset, which a sliding log shows too whenever what it gives back comes under a later Reset
 * or is decided in the last second before one (its whole-second Reset names every request leaving within it).
 */
function emptiedUnseenText(window: QuotaWindow): string {
  return `${window.admitted} admitted under one Reset, ${window.admittedWhenEmpty} of them after the target said 0 were left, none more than ${seconds(RUN_SLACK_MS)} before it: past the limit for a fixed window, not for a limiter giving quota back in the last second before its whole-second Reset (a sliding log), and no admission after a refusal showed which (${unorderedInput(window)})`;
}

/** A window that admitted past its limit well before its Reset, where no kind of limiter gives anything back. */
function firmlyOverText(window: QuotaWindow): string {
  return `${window.firmAdmitted} admitted under one Reset, each answered more than ${seconds(RUN_SLACK_MS)} before it, when no kind of limiter (fixed or sliding window, token bucket) has given any back; limit ${window.limit}`;
}

/**
 * Why a refusal under one Reset is no window's count from sums once a generator was admitted after its own refusal:
 * the limiter gave quota back, and a sliding log's Reset moves as its oldest request leaves, a bucket's as tokens
 * come back, so one Reset's admissions are not all it had admitted when it refused.
 */
const GAVE_BACK = `a generator was admitted again after its own refusal, so the limiter gives quota back (a sliding log, a sliding counter, a bucket) and its Reset may move as it does: the admissions under one Reset are not all it had admitted when it refused, so how many came before the first 429 needs their order (${SUMS_INPUT})`;

/**
 * From a generator's sums, a window seen from its start that refused: all it admitted is the most the target can
 * have admitted before its first refusal, whatever their order, so fewer than the limit is an early refusal; in a
 * fixed window nothing is admitted after the first refusal, so more than the limit is a late one.
 */
export function firstRefusalFromSums(window: QuotaWindow, model: WindowModel, shortScale?: number): { status: VerdictStatus; message: string } {
  const saidLeft = window.refusalsSaidLeft ? `, a 429 saying ${window.refusalsSaidLeft} were left` : '';
  const what = `${count(window.admitted, 'admission')} and ${count(window.refused, '429')} under one Reset${saidLeft}`;
  if (earlyOnceGivenBack(window, model)) return { status: 'not-checked', message: `${what}: ${GAVE_BACK}` };
  if (earlyByUnread(window)) return { status: 'not-checked', message: `${what}: refused before ${window.limit} were seen admitted, but ${unreadText(window.unread)}` };
  if (refusedEarly(window)) return { status: 'fail', message: `${what}: refused before ${window.limit} were admitted` };
  if (refusedLate(window, model, shortScale)) return { status: 'fail', message: `${what}: admitted past ${window.limit} before refusing` };
  if (crossingUntold(window, model, shortScale)) return { status: 'not-checked', message: `${what}: ${shortWindowsText(shortScale!)}` };
  return { status: 'pass', message: `${what}` };
}

export function minuteMax(plan: PlanId, windows: QuotaWindow[], checks: WindowCheck[][], account: KeyAccount): Verdict {
  const limit = plans[plan].documented?.perMinute ?? 0;
  const title = `No minute window admits more than ${limit} requests`;
  const rules = rulesOf('minute-max', plan);
  if (windows.length === 0) return verdict('minute-max', rules, 'not-checked', title, 'No answer named the per-minute limit in X-RateLimit-Limit, so no minute window was seen.');
  const judged = windows.map((window) => ({ window, check: checks[account.windows.indexOf(window)]?.find((c) => c.check === 'minute-max') }));
  const over = judged.filter(({ check }) => check?.status === 'fail');
  const merged = windows.filter((window) => window.merged);
  if (over.length > 0) {
    return verdict(
      'minute-max',
      rules,
      'fail',
      title,
      `${count(over.length, 'window')} of ${windows.length} admitted more than ${limit}.`,
      over.map(({ window, check }) => `${describeWindow(window)}: ${check?.message ?? ''}`),
    );
  }
  if (merged.length === windows.length) {
    return verdict(
      'minute-max',
      rules,
      'inconclusive',
      title,
      `The target's minute lasts under a second here (${lengthText(account)}), shorter than the whole-second X-RateLimit-Reset, so windows cannot be told apart. Use a time scale of 60 or less.`,
    );
  }
  // Windows whose input cannot show how many came before any could come back: named, and no part of "the most".
  const unshown = judged.filter(({ check }) => check?.status === 'not-checked');
  const shown = windows.filter((window) => !window.merged && !unshown.some((other) => other.window === window));
  const notChecked = unshown.map(({ window, check }) => `${describeWindow(window)}: ${check?.message ?? ''}`);
  if (shown.length === 0 && unshown.length > 0) return verdict('minute-max', rules, 'not-checked', title, `No window could be judged: ${unshown[0]!.check?.message ?? ''}.`, notChecked);
  const most = Math.max(0, ...shown.map((window) => (account.model === 'fixed' ? window.admitted : (window.admittedEarly ?? Math.min(window.admitted, window.limit)))));
  return verdict(
    'minute-max',
    rules,
    'pass',
    title,
    `${count(windows.length, 'minute window')} seen; ${MODEL_WORDS[account.model]}, and ${lengthText(account)}. The most admitted in one${account.model === 'sliding' ? ' before requests could age out' : ''} was ${most}.${merged.length ? ` ${merged.length} could not be told apart (sub-second windows).` : ''}${unshown.length ? ` ${count(unshown.length, 'window')} not checked.` : ''}`,
    notChecked,
  );
}

const MODEL_WORDS: Readonly<Record<WindowModel, string>> = {
  fixed: 'they behave as fixed windows (nothing admitted in a window after it refused)',
  sliding: 'they behave as a sliding window (requests age out of it)',
  unseen: 'none refused, so how they give quota back was not seen',
};

function lengthText(account: KeyAccount): string {
  const text = describeWindowLength(account.minuteLength);
  return text === undefined ? 'their length could not be learned' : `a window lasts ${text} of real time, as learned from the answers`;
}

/** "0.91–1.18 s", or one figure when only one bound is known. */
export function describeWindowLength({ atLeastMs, atMostMs }: WindowLength): string | undefined {
  if (atLeastMs !== undefined && atMostMs !== undefined) {
    const low = describeDuration(atLeastMs);
    const high = describeDuration(atMostMs);
    if (low === high) return `about ${high}`;
    const unit = (text: string): string => text.replace(/^[\d.]+ /, '');
    return unit(low) === unit(high) ? `${low.replace(/ \S+$/, '')}–${high}` : `${low}–${high}`;
  }
  const one = atMostMs ?? atLeastMs;
  return one === undefined ? undefined : `${atMostMs === undefined ? 'at least' : 'at most'} ${describeDuration(one)}`;
}

/**
 * Refused before the limit was used: even every request sent before a refusal came back (all the target can have
 * decided before it) falls short of the limit. Requests in flight together reach the target in any order, so the
 * order they were sent in proves nothing.
 */
/**
 * A window of sums that refused early, under a limiter that gives quota back: one Reset's admissions are then not all
 * it had admitted when it refused (GAVE_BACK), so the early refusal is no evidence. Refusing on time still counts.
 */
function earlyOnceGivenBack(window: QuotaWindow, model: WindowModel): boolean {
  return window.fromSums === true && model === 'sliding' && window.admittedBeforeRefusing !== undefined && window.admittedBeforeRefusing < window.limit;
}

/** Refused before the limit was admitted, by more than the answers lost meanwhile can account for (unread.ts). */
export function refusedEarly(window: QuotaWindow): boolean {
  return window.admittedBeforeRefusing !== undefined && window.admittedBeforeRefusing + window.unread < window.limit;
}

/** Refused before the limit was seen admitted, but no earlier than the answers lost meanwhile may account for. */
export function earlyByUnread(window: QuotaWindow): boolean {
  return window.admittedBeforeRefusing !== undefined && shortByUnread(window.admittedBeforeRefusing, window.limit, window.unread);
}

/** Refused only past the limit: a fixed window admits nothing after its first refusal, so all it admitted came before. */
export function refusedLate(window: QuotaWindow, model: WindowModel, shortScale?: number): boolean {
  if (model !== 'fixed') return false;
  return shortScale === undefined ? window.admitted > window.limit : overWithinMinute(window);
}

/** More than the limit came back under one Reset within one minute at the run's time scale of its first request. */
function overWithinMinute(window: QuotaWindow): boolean {
  return (window.withinMinute?.admitted ?? 0) > window.limit;
}

/**
 * At a time scale of short windows (short-windows.ts), a window the fixed model holds past its limit, but not within
 * one minute of its first request: a limiter giving quota back in the last second before its Reset admits so too.
 */
export function crossingUntold(window: QuotaWindow, model: WindowModel, shortScale: number | undefined): boolean {
  return shortScale !== undefined && model === 'fixed' && window.admitted > window.limit && !overWithinMinute(window);
}

function withinMinuteCount(window: QuotaWindow, shortScale: number): string {
  return window.withinMinute === undefined ? `and which of them came back ${withinWindowText(shortScale)} is not known` : `${window.withinMinute.admitted} of them back ${withinWindowText(shortScale)}`;
}

/**
 * A Reset that moves within a window (RL-7) splits the target's window into several of one Reset each, so a count
 * under one Reset is only part of a window's: over the limit it is still more than a window may admit, within it it
 * shows nothing (two nodes counting a key apart each stay within it while the key's window admits twice as many).
 */
export function minuteMaxUnplaced(judged: Verdict): Verdict {
  if (judged.status !== 'pass') return judged;
  return verdict(judged.check, judged.rules, 'not-checked', judged.title, 'X-RateLimit-Reset moved within a window (RL-7 fails), so answers cannot be told into windows by it, and how many one window admitted is not known.');
}

/**
 * A Reset that moves within a window (RL-7) splits the target's window into several of one Reset each, so where
 * in its window a refusal came is not known: an early refusal would be no evidence, only a count of the split.
 */
export function firstRefusalUnplaced(plan: PlanId): Verdict {
  const limit = plans[plan].documented?.perMinute ?? 0;
  return verdict(
    'first-refusal',
    rulesOf('first-refusal', plan),
    'not-checked',
    `While demand exceeds the quota, each minute window admits exactly ${limit}: the first 429 comes at request ${limit + 1}`,
    'X-RateLimit-Reset moved within a window (RL-7 fails), so answers cannot be told into windows by it, and where in its window a refusal came is not known.',
  );
}

export function firstRefusal(plan: PlanId, windows: QuotaWindow[], model: WindowModel, shortScale?: number): Verdict {
  const limit = plans[plan].documented?.perMinute ?? 0;
  const title = `While demand exceeds the quota, each minute window admits exactly ${limit}: the first 429 comes at request ${limit + 1}`;
  const rules = rulesOf('first-refusal', plan);
  const ranOut = windows.filter((window) => !window.merged && window.seenFromStart && window.refused > 0);
  const givenBack = ranOut.filter((window) => earlyOnceGivenBack(window, model));
  const unread = ranOut.filter((window) => !givenBack.includes(window) && earlyByUnread(window));
  const crossing = ranOut.filter((window) => !refusedEarly(window) && crossingUntold(window, model, shortScale));
  const judged = ranOut.filter((window) => !givenBack.includes(window) && !unread.includes(window) && !crossing.includes(window));
  const setAsideNote =
    (givenBack.length > 0 ? ` ${count(givenBack.length, 'window')} that refused before ${limit} under one Reset not judged: ${GAVE_BACK}.` : '') +
    (unread.length > 0 ? ` ${count(unread.length, 'window')} that refused before ${limit} were seen admitted not judged: requests of this key got no readable answer while ${unread.length === 1 ? 'it was' : 'they were'} open (${unread.map((window) => `window ${window.number}: ${window.unread}`).join(', ')}; ${UNREAD_CAUSES}), and may have been admitted in ${unread.length === 1 ? 'it' : 'them'}.` : '') +
    (crossing.length > 0 ? ` ${count(crossing.length, 'window')} that admitted past ${limit} under one Reset not judged: ${shortWindowsText(shortScale!)}.` : '');
  if (judged.length === 0 && ranOut.length > 0) return verdict('first-refusal', rules, 'not-checked', title, `${count(ranOut.length, 'window')} ran out;${setAsideNote}`);
  if (judged.length === 0) {
    const refusedAtAll = windows.some((window) => window.refused > 0);
    return verdict(
      'first-refusal',
      rules,
      'not-checked',
      title,
      refusedAtAll
        ? 'Refusals came only in windows the client did not see from their start, so the count before them is unknown.'
        : `No minute window refused anything: demand stayed within ${limit} per window. Send faster than the limit (e.g. --rate 1.1x) to check this.`,
    );
  }
  const early = judged.filter(refusedEarly);
  const late = judged.filter((window) => refusedLate(window, model, shortScale));
  if (early.length + late.length > 0) {
    return verdict(
      'first-refusal',
      rules,
      'fail',
      title,
      `${count(early.length + late.length, 'window')} of ${judged.length} ${early.length ? `refused before ${limit} were admitted` : ''}${early.length && late.length ? ' or ' : ''}${late.length ? `admitted past ${limit} before refusing` : ''}.`,
      [...early, ...late].map((window) => `${describeWindow(window)}: ${window.fromSums ? firstRefusalFromSums(window, model, shortScale).message : `first 429 at request ${(window.admittedBeforeFirstRefusal ?? 0) + 1}`}`),
    );
  }
  return verdict('first-refusal', rules, 'pass', title, `In all ${count(judged.length, 'window')} that ran out, exactly ${limit} were admitted and request ${limit + 1} got 429.${setAsideNote}`);
}

export function dailyQuota(plan: PlanId, days: DaySegment[] | undefined, account: KeyAccount, context: JudgeContext, result: KeyResult): Verdict {
  const perDay = plans[plan].documented?.perDay ?? 0;
  const title = `No more than ${perDay.toLocaleString('en-US')} requests are admitted in a day; then 429 until the day ends`;
  const rules = rulesOf('daily-quota', plan);
  if (days === undefined) return verdict('daily-quota', rules, 'not-checked', title, `The day's cutoff came while requests were being admitted, or a day ended during the run: which admissions came before it is not known (${SUMS_INPUT}).`);
  const evidence: string[] = [];
  let failed = false;
  let warned = false;
  let held = 0;
  let lost = 0;
  for (const day of days) {
    const fresh = context.freshKeys || day.number > 1;
    if (day.admittedAfterCutoff > 0) {
      failed = true;
      evidence.push(`day ${day.number}: ${day.admittedAfterCutoff} admitted after the daily cutoff, before the day could have ended`);
    }
    if (day.cutoff) {
      const before = day.cutoff.admittedBefore;
      if (before > perDay) {
        failed = true;
        evidence.push(`day ${day.number}: ${before.toLocaleString('en-US')} admitted before the daily cutoff`);
      } else if (shortByUnread(before, perDay, day.cutoff.unreadBefore)) {
        lost++;
        evidence.push(`day ${day.number}: refused for the day after ${before.toLocaleString('en-US')} admitted, but ${unreadText(day.cutoff.unreadBefore, 'day')}`);
      } else if (before < perDay) {
        if (fresh) failed = true;
        else warned = true;
        evidence.push(`day ${day.number}: refused for the day after ${before.toLocaleString('en-US')} admitted${fresh ? '' : ' in this run (the key may have been used earlier today)'}`);
      } else held++;
    } else if (day.admitted > perDay && withinOneDay(day, account, context)) {
      failed = true;
      evidence.push(`day ${day.number}: ${day.admitted.toLocaleString('en-US')} admitted with no daily refusal, within ${describeDuration(context.elapsedMs)}${dayLengthText(account)}`);
    }
  }
  const reached = days.some((day) => day.cutoff !== undefined || day.admitted > perDay);
  if (failed) return verdict('daily-quota', rules, 'fail', title, `The daily quota of ${perDay.toLocaleString('en-US')} did not hold.`, evidence);
  if (warned) return verdict('daily-quota', rules, 'warn', title, 'The target cut the key off for the day before this run had used the daily quota.', evidence);
  if (held > 0) {
    return verdict(
      'daily-quota',
      rules,
      'pass',
      title,
      `In ${count(held, 'day')}, exactly ${perDay.toLocaleString('en-US')} were admitted, then the target refused with the daily limit until the day ended${days.length > 1 ? `; ${days.length - 1} new day${days.length > 2 ? 's' : ''} began during the run` : ''}.${lost > 0 ? ` ${count(lost, 'day')} not checked: answers were lost before the cutoff.` : ''}`,
      // The days left unchecked for answers lost before their cutoff say so first: `evidence` holds only theirs here.
      [
        ...evidence,
        ...days
          .filter((day) => day.cutoff?.admittedBefore === perDay)
          .map((day) => `day ${day.number}: cut off ${seconds(day.cutoff?.at ?? 0)} into the run after ${day.cutoff?.admittedBefore.toLocaleString('en-US')} admitted${day.cutoff?.retryAfterMs !== undefined ? `; Retry-After ${describeDuration(day.cutoff.retryAfterMs)}` : ''}`),
      ],
    );
  }
  if (lost > 0) return verdict('daily-quota', rules, 'not-checked', title, `The target cut the key off for the day before ${perDay.toLocaleString('en-US')} were seen admitted, but answers lost before the cutoff may make up the rest.`, evidence);
  const admitted = days.reduce((sum, day) => sum + day.admitted, 0);
  const perSecond = result.perSecond ?? 0;
  return verdict(
    'daily-quota',
    rules,
    reached ? 'inconclusive' : 'not-checked',
    title,
    `${admitted.toLocaleString('en-US')} of the ${perDay.toLocaleString('en-US')} a day allows were admitted: the run did not reach the daily quota.${perSecond > 0 ? ` At the rate admitted here that takes about ${describeDuration((perDay / Math.min(perSecond, admittedRate(result))) * 1000)}: run longer (--duration), or see the free-whole-day scenario.` : ''}`,
  );
}

function admittedRate(result: KeyResult): number {
  const span = (result.observations.at(-1)?.doneAt ?? 0) - (result.observations[0]?.sentAt ?? 0);
  return span > 0 ? (result.admitted * 1000) / span : Infinity;
}

/** With no daily refusal seen, a day lasts at least 1,440 of the shortest minute windows seen. */
function withinOneDay(day: DaySegment, account: KeyAccount, context: JudgeContext): boolean {
  if (day.dayReset !== undefined) return true;
  const { atLeastMs } = account.minuteLength;
  return atLeastMs !== undefined && context.elapsedMs - day.startedAt < 1440 * atLeastMs;
}

function dayLengthText(account: KeyAccount): string {
  const { atLeastMs } = account.minuteLength;
  return atLeastMs === undefined ? '' : ` while a day at this target lasts at least ${describeDuration(1440 * atLeastMs)} (1,440 of its minutes)`;
}

export function customQuota(plan: PlanId, account: KeyAccount, result: KeyResult): Verdict {
  const limits = [...new Set(account.windows.map((window) => window.limit))].sort((a, b) => a - b);
  const most = Math.max(0, ...account.windows.map((window) => window.admitted));
  const title = `${plans[plan].name} quotas are custom: what the target reports is recorded`;
  const detail = limits.length
    ? `X-RateLimit-Limit said ${limits.map((l) => l.toLocaleString('en-US')).join(' and ')}; ${count(account.windows.length, 'window')}, at most ${most.toLocaleString('en-US')} admitted in one; ${count(result.refused, 'refusal')}.`
    : 'The target sent no X-RateLimit headers on these answers.';
  return verdict('custom-quota', rulesOf('custom-quota', plan), 'observed', title, detail);
}

/**
 * Limiters that give their quota back bit by bit (a bucket, a sliding log or counter): from full, the minute Limit
 * is admitted before the first 429, and no more than what came back meanwhile (lib/rate-limiter/bucket-capacity.ts).
 */
export function capacityQuota(plan: PlanId, account: KeyAccount, answers: readonly Answer[]): Verdict[] {
  const limit = plans[plan].documented?.perMinute ?? 0;
  const windowMs = shortestRefillWindowMs(account);
  const rules = rulesOf('minute-max', plan);
  const title = `From full, ${limit} requests are admitted at once, and no more than the quota gives back after`;
  const measure = bucketCapacity(answers.map(({ reading }) => reading).filter((reading) => reading.status !== 0), limit, windowMs);
  const kind = `The target gives its quota back bit by bit (${account.limiter.kind}: ${account.limiter.evidence.at(-1) ?? 'no step showed how'})`;
  // Whatever it gives back, none comes back under one Reset well before it.
  const firmlyOver = account.windows.filter((window) => window.windowClass === 'minute' && !window.merged && firmlyPastLimit(window) > 0);
  const overVerdict = firmlyOver.length > 0 ? verdict('minute-max', rules, 'fail', title, `${kind}; ${count(firmlyOver.length, 'window')} admitted more than ${limit} well before its Reset.`, firmlyOver.map((window) => `${describeWindow(window)}: ${firmlyOverText(window)}`)) : undefined;
  if (!measure) {
    const detail = `${kind}; no full bucket was followed to a refusal, so its capacity was not measured. Send faster than the limit (e.g. --rate 1.1x).`;
    return [overVerdict ?? verdict('minute-max', rules, 'not-checked', title, detail), verdict('first-refusal', rulesOf('first-refusal', plan), 'not-checked', title, detail)];
  }
  const { admitted, givenBack } = measure;
  const what = `from full, ${count(admitted, 'request')} admitted before the first 429, over ${describeDuration(measure.refusal.receivedAt - measure.from.sentAt)} in which up to ${givenBack.toLocaleString('en-US')} could come back (${describeDuration(windowMs)} a window, learned from the run)`;
  const over = admitted > limit + givenBack;
  // Requests whose answers were lost while the bucket was being emptied may have taken tokens too.
  const unread = answers.filter(({ lost, reading }) => lost && reading.sentAt <= measure.refusal.receivedAt && reading.receivedAt >= measure.from.sentAt).length;
  const early = admitted < limit;
  const refusal = early && shortByUnread(admitted, limit, unread) ? ('not-checked' as const) : early ? ('fail' as const) : ('pass' as const);
  const refusalEvidence = early ? [`expected the first 429 no earlier than request ${limit + 1}, got it at request ${admitted + 1}`] : [];
  return [
    overVerdict ?? verdict('minute-max', rules, over ? 'fail' : 'pass', title, `${kind}; ${what}.`, over ? [`expected at most ${limit + givenBack}, got ${admitted}`] : []),
    verdict('first-refusal', rulesOf('first-refusal', plan), refusal, title, `${kind}; ${what}.${refusal === 'not-checked' ? ` ${unreadText(unread, 'bucket')}.` : ''}`, refusalEvidence),
  ];
}
