/**
 * What a load run shows about a key's quota, as verdicts that cite the rules of fixtures/rules.yaml. Every
 * figure comes from the target's own answers (see windows.ts and days.ts); a MUST broken fails, what the
 * spec leaves open (bans, Enterprise quotas) is observed and never failed.
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { ruleById } from '../../lib/rules.ts';
import { breachStatus } from '../../lib/verdicts/breach.ts';
import { describeDuration } from './duration.ts';
import type { DaySegment } from './days.ts';
import type { KeyResult } from './runner.ts';
import { SUMS_CARRY, SUMS_INPUT, type SummedKey } from './summed.ts';
import type { KeyAccount, QuotaWindow, WindowLength, WindowModel } from './windows.ts';
import { readingOf } from '../../lib/rate-limiter/account.ts';
import { bucketCapacity } from '../../lib/rate-limiter/bucket-capacity.ts';
import { rulesOf, unmetNeeds } from '../../lib/rate-limiter/checks.ts';
import { KIND_MEANING, type LimiterKind } from '../../lib/rate-limiter/kinds.ts';
import { decidedAfter } from '../../lib/rate-limiter/order.ts';
import { isAdmitted, mayHaveEnded, MINUTE_WINDOW_MS, type Reading } from '../../lib/rate-limiter/reading.ts';
import { AnchoredSteps, remainingStepProblem, stepBetween } from '../../lib/rate-limiter/steps.ts';
import { largest, smallest } from '../../lib/extremes.ts';

export type VerdictStatus = 'fail' | 'warn' | 'inconclusive' | 'pass' | 'observed' | 'not-checked';

/** Worst first: the status of a group of verdicts is the first of these any of them has. */
export const STATUS_ORDER: readonly VerdictStatus[] = ['fail', 'warn', 'inconclusive', 'pass', 'observed', 'not-checked'];

export type CheckId =
  | 'minute-max'
  | 'first-refusal'
  | 'retry-after-admitted'
  | 'remaining-steps'
  | 'reset-stable'
  | 'daily-quota'
  | 'refusal-headers'
  | 'headers-on-every-answer'
  | 'ban'
  | 'custom-quota'
  | 'limiter-kind';

/** The checks that decide whether a plan's documented quota held. */
export const QUOTA_CHECKS: readonly CheckId[] = ['minute-max', 'first-refusal', 'daily-quota'];

export interface Verdict {
  check: CheckId;
  rules: string[];
  status: VerdictStatus;
  /** The rule as this run checks it, in a sentence. */
  title: string;
  /** What the run saw. */
  detail: string;
  /** Up to five concrete cases, e.g. the windows that broke it. */
  evidence: string[];
}

export interface WindowCheck {
  check: CheckId;
  status: VerdictStatus;
  message: string;
}

export interface JudgeContext {
  /** The keys were unused when the run began (a server this run started), so a day or window seen from the start is whole. */
  freshKeys: boolean;
  startedAtEpochMs: number;
  elapsedMs: number;
}

const MAX_EVIDENCE = 5;

/** Kinds of limiter that give their quota back bit by bit rather than whole at a window's end. */
const GRADUAL_KINDS: readonly LimiterKind[] = ['bucket', 'sliding-log', 'sliding-counter'];

export function worst(statuses: Iterable<VerdictStatus>): VerdictStatus {
  let index = STATUS_ORDER.length - 1;
  for (const status of statuses) index = Math.min(index, STATUS_ORDER.indexOf(status));
  return STATUS_ORDER[index] ?? 'not-checked';
}

export function planRule(plan: PlanId): string {
  return ruleById(`PLAN-${plan.toUpperCase()}`).id;
}

export function describeWindow(window: QuotaWindow): string {
  const kind = window.windowClass === 'day' ? 'day window' : window.windowClass === 'minute' ? 'window' : `window (limit ${window.limit})`;
  return `${kind} ${window.number} (${seconds(window.firstSentAt)}–${seconds(window.lastDoneAt)} into the run, Reset ${new Date(window.reset * 1000).toISOString().slice(11, 19)} UTC)`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/**
 * A check's verdict. A broken rule ('fail' or 'warn' as found) is as grave as its rules' level makes it
 * (lib/verdicts/breach.ts): a GAP is only observed, a SHOULD warns, a MUST fails.
 */
function verdict(check: CheckId, rules: string[], found: VerdictStatus, title: string, detail: string, evidence: string[] = []): Verdict {
  const breach = breachStatus(rules);
  const status = found === 'fail' ? breach : found === 'warn' && breach === 'observed' ? 'observed' : found;
  return { check, rules, status, title, detail, evidence: evidence.slice(0, MAX_EVIDENCE) };
}

export interface KeyJudgement {
  verdicts: Verdict[];
  /** Per window (same order as account.windows). */
  windowChecks: WindowCheck[][];
}

/** `days` undefined: the input (a generator's sums) does not show which admissions came before the day's cutoff. */
export function judgeKey(result: KeyResult, account: KeyAccount, days: DaySegment[] | undefined, context: JudgeContext): KeyJudgement {
  const { plan } = result.spec;
  const documented = plans[plan].documented;
  const minuteWindows = account.windows.filter((window) => window.windowClass === 'minute');
  const gradual = GRADUAL_KINDS.includes(account.limiter.kind);
  // What comes back bit by bit has no window of one Reset that holds its count: its quota is its capacity from empty.
  const windowChecks = account.windows.map((window) => (gradual ? [] : judgeWindow(window, plan, account.model)));
  const verdicts: Verdict[] = [];
  const answers = answersOf(result, context);
  const reset = result.summed ? resetFromSums(result.summed) : resetStable(account, answers);

  if (documented) {
    if (gradual) verdicts.push(...capacityQuota(plan, account, answers));
    else {
      verdicts.push(minuteMax(plan, minuteWindows, windowChecks, account));
      verdicts.push(reset.status === 'fail' ? firstRefusalUnplaced(plan) : firstRefusal(plan, minuteWindows, account.model));
    }
    verdicts.push(dailyQuota(plan, days, account, context, result));
  } else verdicts.push(customQuota(plan, account, result));
  verdicts.push(result.summed ? retryAfterAdmittedFromSums(result, result.summed) : retryAfterAdmitted(result, account));
  verdicts.push(gradual ? refilledRemainingSteps(account, answers) : reset.status === 'fail' ? remainingUnplaced() : remainingSteps(account));
  verdicts.push(reset);
  verdicts.push(refusalHeaders(result));
  verdicts.push(headersOnEveryAnswer(result, account, plan));
  verdicts.push(ban(result, account));
  verdicts.push(limiterKind(account));
  return { verdicts, windowChecks };
}

function judgeWindow(window: QuotaWindow, plan: PlanId, model: WindowModel): WindowCheck[] {
  const checks: WindowCheck[] = [];
  if (window.windowClass === 'minute' && plans[plan].documented) {
    checks.push({ check: 'minute-max', ...overAdmission(window, model) });
    if (!window.merged && window.refused > 0 && window.seenFromStart && window.fromSums) checks.push({ check: 'first-refusal', ...firstRefusalFromSums(window, model) });
    else if (!window.merged && window.admittedBeforeFirstRefusal !== undefined && window.seenFromStart) {
      const before = window.admittedBeforeFirstRefusal;
      checks.push(
        refusedEarly(window)
          ? { check: 'first-refusal', status: 'fail', message: `first 429 at request ${before + 1}, expected ${window.limit + 1}` }
          : refusedLate(window, model)
            ? { check: 'first-refusal', status: 'fail', message: `first 429 after ${window.admitted} admissions, expected ${window.limit + 1}` }
            : before > window.limit
              ? { check: 'first-refusal', status: 'pass', message: `first 429 at request ${before + 1}, after requests aged out` }
              : { check: 'first-refusal', status: 'pass', message: `first 429 at request ${before + 1}` },
      );
    }
  }
  checks.push({ check: 'remaining-steps', ...remainingStatus(window, model) });
  return checks;
}

/**
 * Over-admission, judged only where no request can have aged out (see windows.ts): more than the limit
 * admitted before a window's first refusal, or admissions the target itself said it had no room for.
 */
function overAdmission(window: QuotaWindow, model: WindowModel): { status: VerdictStatus; message: string } {
  if (window.merged) return { status: 'inconclusive', message: `${window.admitted} admitted under one Reset: several sub-second windows share it` };
  if (model === 'fixed' && window.seenFromStart && window.admitted > window.limit) {
    const before = window.admittedBeforeFirstRefusal;
    return { status: 'fail', message: `${window.admitted} admitted${before !== undefined ? `, ${before} of them before the first 429` : ''}; limit ${window.limit}` };
  }
  if (model === 'fixed' && window.admitted > window.limit && window.admittedWhenEmpty > 0) {
    return { status: 'fail', message: `${window.admitted} admitted, ${window.admittedWhenEmpty} of them after the target said 0 were left` };
  }
  if (model === 'sliding' && window.admittedEarly !== undefined && window.admittedEarly > window.limit) {
    return { status: 'fail', message: `${window.admittedEarly} admitted before the window's first request could have aged out; limit ${window.limit}` };
  }
  if (window.admitted > window.limit && window.fromSums) return { status: 'not-checked', message: `${window.admitted} admitted under one Reset of a sliding window: how many before any could age out needs their order (${SUMS_INPUT})` };
  if (window.admitted > window.limit) return { status: 'pass', message: `${window.admitted} admitted under one Reset, as requests aged out (a sliding window)` };
  return { status: 'pass', message: `${window.admitted} of ${window.limit} admitted` };
}

/**
 * From a generator's sums, a window seen from its start that refused: all it admitted is the most the target can
 * have admitted before its first refusal, whatever their order, so fewer than the limit is an early refusal; in a
 * fixed window nothing is admitted after the first refusal, so more than the limit is a late one.
 */
function firstRefusalFromSums(window: QuotaWindow, model: WindowModel): { status: VerdictStatus; message: string } {
  const saidLeft = window.refusalsSaidLeft ? `, a 429 saying ${window.refusalsSaidLeft} were left` : '';
  const what = `${count(window.admitted, 'admission')} and ${count(window.refused, '429')} under one Reset${saidLeft}`;
  if (refusedEarly(window)) return { status: 'fail', message: `${what}: refused before ${window.limit} were admitted` };
  if (refusedLate(window, model)) return { status: 'fail', message: `${what}: admitted past ${window.limit} before refusing` };
  return { status: 'pass', message: `${what}` };
}

/** Remaining must count down one by one, at least where nothing can have aged out yet (see windows.ts). */
function remainingStatus(window: QuotaWindow, model: WindowModel): { status: VerdictStatus; message: string } {
  if (window.merged || window.remaining.length < 2) return { status: 'not-checked', message: 'too few admitted requests to compare' };
  const whole = countdownProblem(window.remaining, window.limit);
  if (whole === undefined) return { status: 'pass', message: `Remaining went ${largest(window.remaining)} … ${smallest(window.remaining)}, one less per admitted request` };
  const shown = window.remaining.slice(0, 12).join(', ');
  if (model === 'fixed' && window.seenFromStart) return { status: 'fail', message: `Remaining went ${shown}${window.remaining.length > 12 ? ', …' : ''}: ${whole}` };
  if (!window.seenFromStart) return { status: 'not-checked', message: `${whole}; the window's start was not seen, so requests may have aged out of it` };
  if (window.fromSums) return { status: 'not-checked', message: `${whole}; requests may have aged out of this sliding window, and which came first is not known: ${SUMS_INPUT}` };
  if (window.earlyRemaining === undefined) return { status: 'inconclusive', message: `${whole}; no window ran out, so the run cannot tell this from requests ageing out` };
  const early = countdownProblem(window.earlyRemaining, window.limit);
  if (early === undefined) return { status: 'pass', message: `Remaining counted down one by one until requests could age out` };
  return { status: 'fail', message: `Remaining went ${shown}${window.remaining.length > 12 ? ', …' : ''}: ${early}` };
}

/** What is wrong with a countdown of Remaining values (in any order), or undefined when it steps by one. */
function countdownProblem(values: readonly number[], limit: number): string | undefined {
  const sorted = [...values].sort((a, b) => b - a);
  if ((sorted[0] ?? 0) > limit) return `${sorted[0]} is above the limit ${limit}`;
  const index = sorted.findIndex((value, i) => i > 0 && value !== (sorted[i - 1] as number) - 1);
  if (index === -1) return undefined;
  return sorted[index] === sorted[index - 1] ? `${sorted[index]} came twice` : `it jumped from ${sorted[index - 1]} to ${sorted[index]}`;
}

function minuteMax(plan: PlanId, windows: QuotaWindow[], checks: WindowCheck[][], account: KeyAccount): Verdict {
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
  const most = Math.max(0, ...windows.filter((w) => !w.merged).map((window) => (account.model === 'fixed' ? window.admitted : (window.admittedEarly ?? Math.min(window.admitted, window.limit)))));
  return verdict(
    'minute-max',
    rules,
    'pass',
    title,
    `${count(windows.length, 'minute window')} seen; they behave as ${account.model === 'fixed' ? 'fixed windows (nothing admitted in a window after it refused)' : 'a sliding window (requests age out of it)'}, and ${lengthText(account)}. The most admitted in one${account.model === 'sliding' ? ' before requests could age out' : ''} was ${most}.${merged.length ? ` ${merged.length} could not be told apart (sub-second windows).` : ''}`,
  );
}

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
function refusedEarly(window: QuotaWindow): boolean {
  return window.admittedBeforeRefusing !== undefined && window.admittedBeforeRefusing < window.limit;
}

/** Refused only past the limit: a fixed window admits nothing after its first refusal, so all it admitted came before. */
function refusedLate(window: QuotaWindow, model: WindowModel): boolean {
  return model === 'fixed' && window.admitted > window.limit;
}

/**
 * A Reset that moves within a window (RL-7) splits the target's window into several of one Reset each, so where
 * in its window a refusal came is not known: an early refusal would be no evidence, only a count of the split.
 */
function firstRefusalUnplaced(plan: PlanId): Verdict {
  const limit = plans[plan].documented?.perMinute ?? 0;
  return verdict(
    'first-refusal',
    [planRule(plan), 'RL-1'],
    'not-checked',
    `While demand exceeds the quota, each minute window admits exactly ${limit}: the first 429 comes at request ${limit + 1}`,
    'X-RateLimit-Reset moved within a window (RL-7 fails), so answers cannot be told into windows by it, and where in its window a refusal came is not known.',
  );
}

function firstRefusal(plan: PlanId, windows: QuotaWindow[], model: WindowModel): Verdict {
  const limit = plans[plan].documented?.perMinute ?? 0;
  const title = `While demand exceeds the quota, each minute window admits exactly ${limit}: the first 429 comes at request ${limit + 1}`;
  const rules = rulesOf('first-refusal', plan);
  const judged = windows.filter((window) => !window.merged && window.seenFromStart && window.refused > 0);
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
  const late = judged.filter((window) => refusedLate(window, model));
  if (early.length + late.length > 0) {
    return verdict(
      'first-refusal',
      rules,
      'fail',
      title,
      `${count(early.length + late.length, 'window')} of ${judged.length} ${early.length ? `refused before ${limit} were admitted` : ''}${early.length && late.length ? ' or ' : ''}${late.length ? `admitted past ${limit} before refusing` : ''}.`,
      [...early, ...late].map((window) => `${describeWindow(window)}: ${window.fromSums ? firstRefusalFromSums(window, model).message : `first 429 at request ${(window.admittedBeforeFirstRefusal ?? 0) + 1}`}`),
    );
  }
  return verdict('first-refusal', rules, 'pass', title, `In all ${count(judged.length, 'window')} that ran out, exactly ${limit} were admitted and request ${limit + 1} got 429.`);
}

function dailyQuota(plan: PlanId, days: DaySegment[] | undefined, account: KeyAccount, context: JudgeContext, result: KeyResult): Verdict {
  const perDay = plans[plan].documented?.perDay ?? 0;
  const title = `No more than ${perDay.toLocaleString('en-US')} requests are admitted in a day; then 429 until the day ends`;
  const rules = rulesOf('daily-quota', plan);
  if (days === undefined) return verdict('daily-quota', rules, 'not-checked', title, `The day's cutoff came while requests were being admitted, or a day ended during the run: which admissions came before it is not known (${SUMS_INPUT}).`);
  const evidence: string[] = [];
  let failed = false;
  let warned = false;
  let held = 0;
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
      `In ${count(held, 'day')}, exactly ${perDay.toLocaleString('en-US')} were admitted, then the target refused with the daily limit until the day ended${days.length > 1 ? `; ${days.length - 1} new day${days.length > 2 ? 's' : ''} began during the run` : ''}.`,
      days.filter((day) => day.cutoff).map((day) => `day ${day.number}: cut off ${seconds(day.cutoff?.at ?? 0)} into the run after ${day.cutoff?.admittedBefore.toLocaleString('en-US')} admitted${day.cutoff?.retryAfterMs !== undefined ? `; Retry-After ${describeDuration(day.cutoff.retryAfterMs)}` : ''}`),
    );
  }
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

function customQuota(plan: PlanId, account: KeyAccount, result: KeyResult): Verdict {
  const limits = [...new Set(account.windows.map((window) => window.limit))].sort((a, b) => a - b);
  const most = Math.max(0, ...account.windows.map((window) => window.admitted));
  const title = `${plans[plan].name} quotas are custom: what the target reports is recorded`;
  const detail = limits.length
    ? `X-RateLimit-Limit said ${limits.map((l) => l.toLocaleString('en-US')).join(' and ')}; ${count(account.windows.length, 'window')}, at most ${most.toLocaleString('en-US')} admitted in one; ${count(result.refused, 'refusal')}.`
    : 'The target sent no X-RateLimit headers on these answers.';
  return verdict('custom-quota', [`PLAN-${plan.toUpperCase()}`], 'observed', title, detail);
}

function retryAfterAdmitted(result: KeyResult, account: KeyAccount): Verdict {
  const title = 'A request sent after waiting the time Retry-After gave is admitted';
  const rules = rulesOf('retry-after-admitted');
  if (result.spec.behaviour === 'naive') return verdict('retry-after-admitted', rules, 'not-checked', title, 'This client is naive: it does not wait after a 429, so it cannot check this.');
  const retries = result.observations.map((observation, index) => ({ observation, index })).filter(({ observation }) => observation.retry !== undefined && observation.outcome !== 'error');
  if (retries.length === 0) return verdict('retry-after-admitted', rules, 'not-checked', title, 'The client never had to wait out a 429 (or the run ended during the wait).');
  const refused = retries.filter(({ observation }) => observation.outcome === 'refused');
  const dayCut = refused.filter(({ observation }) => observation.limit !== undefined && account.windows.some((w) => w.windowClass === 'day' && w.limit === observation.limit));
  const banned = refused.filter(({ index }) => account.banLike.has(index));
  const failures = refused.filter((entry) => !dayCut.includes(entry) && !banned.includes(entry));
  const describe = ({ observation }: { observation: (typeof retries)[number]['observation'] }): string =>
    `${seconds(observation.sentAt)} into the run, after waiting ${describeDuration(observation.retry?.waitedMs ?? 0)} (Retry-After ${observation.retry?.retryAfterMs === undefined ? 'absent' : describeDuration(observation.retry.retryAfterMs)}): ${observation.status}`;
  if (failures.length > 0) {
    return verdict('retry-after-admitted', rules, 'fail', title, `${count(failures.length, 'retry', 'retries')} of ${retries.length} sent after the wait were refused again.`, failures.map(describe));
  }
  if (banned.length > 0) {
    return verdict('retry-after-admitted', rules, 'warn', title, `${count(banned.length, 'retry', 'retries')} after an honoured Retry-After met a ban.`, banned.map(describe));
  }
  const admitted = retries.length - refused.length;
  return verdict(
    'retry-after-admitted',
    rules,
    'pass',
    title,
    `${count(admitted, 'request')} sent after waiting Retry-After ${admitted === 1 ? 'was' : 'were'} admitted${dayCut.length ? ` (${dayCut.length} refused because the day's quota was spent, as expected)` : ''}.`,
  );
}

/**
 * From a generator's sums: each generator marks the requests its client sent after waiting out a 429 and counts how
 * they were answered, so a refused retry is seen without the order of the window's other answers.
 */
function retryAfterAdmittedFromSums(result: KeyResult, summed: SummedKey): Verdict {
  const title = 'A request sent after waiting the time Retry-After gave is admitted';
  const rules = rulesOf('retry-after-admitted');
  const { sent, refused, refusedByDay, refusedInBan } = summed.retries;
  if (result.spec.behaviour === 'naive') return verdict('retry-after-admitted', rules, 'not-checked', title, 'This client is naive: it does not wait after a 429, so it cannot check this.');
  if (sent === 0) return verdict('retry-after-admitted', rules, 'not-checked', title, 'The client never had to wait out a 429 (or the run ended during the wait).');
  if (refused > 0) return verdict('retry-after-admitted', rules, 'fail', title, `${count(refused, 'retry', 'retries')} of ${sent} sent after the wait were refused again, in windows of the minute limit.`);
  if (refusedInBan > 0) return verdict('retry-after-admitted', rules, 'warn', title, `${count(refusedInBan, 'retry', 'retries')} after an honoured Retry-After met a ban.`);
  const admitted = sent - refusedByDay;
  return verdict('retry-after-admitted', rules, 'pass', title, `${count(admitted, 'request')} sent after waiting Retry-After ${admitted === 1 ? 'was' : 'were'} admitted${refusedByDay ? ` (${refusedByDay} refused because the day's quota was spent, as expected)` : ''}.`);
}

/**
 * A Reset that moves within a window (RL-7) splits it into several of one Reset each, whose Remaining values skip the
 * ones its other parts took: the countdown is no evidence of a Remaining gone wrong, and is not judged.
 */
function remainingUnplaced(): Verdict {
  return verdict(
    'remaining-steps',
    rulesOf('remaining-steps'),
    'not-checked',
    'X-RateLimit-Remaining falls by one with each admitted request in a window',
    'X-RateLimit-Reset moved within a window (RL-7 fails), so answers cannot be told into windows by it, and which Remaining values one window said is not known.',
  );
}

function remainingSteps(account: KeyAccount): Verdict {
  const title = 'X-RateLimit-Remaining falls by one with each admitted request in a window';
  const judged = account.windows.map((window) => ({ window, ...remainingStatus(window, account.model) })).filter(({ status }) => status !== 'not-checked');
  if (judged.length === 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'not-checked', title, 'No window admitted two or more requests the client could compare.');
  const failed = judged.filter(({ status }) => status === 'fail');
  if (failed.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'fail', title, `${count(failed.length, 'window')} of ${judged.length} did not count down one by one.`, failed.map(({ window, message }) => `${describeWindow(window)}: ${message}`));
  const unsure = judged.filter(({ status }) => status === 'inconclusive');
  if (unsure.length > 0) return verdict('remaining-steps', rulesOf('remaining-steps'), 'inconclusive', title, `${count(unsure.length, 'window')} repeated a Remaining value, which a sliding window may do as requests age out; no window ran out, so the run cannot tell.`, unsure.map(({ window, message }) => `${describeWindow(window)}: ${message}`));
  return verdict('remaining-steps', rulesOf('remaining-steps'), 'pass', title, `In all ${count(judged.length, 'window')}, Remaining fell by exactly one per admitted request.`);
}

/** The answers of the run as the model reads them (lib/rate-limiter), each with when it was sent relative to the run. */
interface Answer {
  reading: Reading;
  sentAt: number;
  doneAt: number;
}

function answersOf(result: KeyResult, context: JudgeContext): Answer[] {
  return result.observations.map((o) => ({ reading: readingOf(o, context.startedAtEpochMs), sentAt: o.sentAt, doneAt: o.doneAt })).sort((a, b) => a.sentAt - b.sentAt);
}

/** The window a minute Limit comes back over, as learned from the run (the documented minute when nothing was learned). */
function minuteWindowMs(account: KeyAccount): number {
  return account.refillWindowMs ?? account.minuteLength.estimateMs ?? MINUTE_WINDOW_MS;
}

/**
 * Admitted answers of one Limit, one right after the other with nothing else of the key in flight from the first's
 * sending to the second's answer (no refusal, no error the limiter may have counted): the limiter decided them in
 * that order and nothing between, so what the second says follows from the first.
 */
function sequentialPairs(answers: readonly Answer[]): Array<[Answer, Answer]> {
  const pairs: Array<[Answer, Answer]> = [];
  let doneBefore = -Infinity;
  for (let index = 0; index + 1 < answers.length; index++) {
    const [previous, next, after] = [answers[index]!, answers[index + 1]!, answers[index + 2]];
    // One client, one clock: decided one after the other (order.ts) with no skew, and nothing else of the key in flight.
    const alone = doneBefore <= previous.sentAt && decidedAfter({ receivedAt: previous.doneAt }, next, 0) === 'after' && (after === undefined || after.sentAt >= next.doneAt);
    doneBefore = Math.max(doneBefore, previous.doneAt);
    if (alone && judgeable(previous.reading) && judgeable(next.reading) && next.reading.limit === previous.reading.limit) pairs.push([previous, next]);
  }
  return pairs;
}

function judgeable(reading: Reading): boolean {
  return reading.status !== 0 && isAdmitted(reading) && reading.limit !== undefined && reading.remaining !== undefined && reading.reset !== undefined;
}

/** X-RateLimit-Reset may stay put, start a new window once it has come, or move on to when a bucket is full again; nothing else (lib/rate-limiter/steps.ts). */
function resetStable(account: KeyAccount, answers: readonly Answer[]): Verdict {
  const title = 'X-RateLimit-Reset stays put within a window (a bucket\'s: when it is full again)';
  const windowMs = minuteWindowMs(account);
  const pairs = sequentialPairs(answers);
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
function resetFromSums(summed: SummedKey): Verdict {
  const title = 'X-RateLimit-Reset stays put within a window (a bucket\'s: when it is full again)';
  const rules = rulesOf('reset-stable');
  if (summed.resetMovedBack.length > 0) return verdict('reset-stable', rules, 'fail', title, `Reset moved back ${count(summed.resetMovedBack.length, 'time')}: an earlier Reset named after a later one had come back.`, summed.resetMovedBack);
  return verdict('reset-stable', rules, 'not-checked', title, `No Reset moved back between windows; within a window, ${unmetNeeds('reset-stable', SUMS_CARRY, 'per-window sums')} (${SUMS_INPUT}).`);
}

/** A limiter that gives its quota back over time: Remaining falls by one, or rises by no more than can come back between two answers. */
function refilledRemainingSteps(account: KeyAccount, answers: readonly Answer[]): Verdict {
  const title = 'X-RateLimit-Remaining falls by one with each admitted request, and rises only as the quota comes back';
  const windowMs = minuteWindowMs(account);
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

/**
 * Limiters that give their quota back bit by bit (a bucket, a sliding log or counter): from full, the minute Limit
 * is admitted before the first 429, and no more than what came back meanwhile (lib/rate-limiter/bucket-capacity.ts).
 */
function capacityQuota(plan: PlanId, account: KeyAccount, answers: readonly Answer[]): Verdict[] {
  const limit = plans[plan].documented?.perMinute ?? 0;
  const windowMs = minuteWindowMs(account);
  const rules = [planRule(plan)];
  const title = `From full, ${limit} requests are admitted at once, and no more than the quota gives back after`;
  const measure = bucketCapacity(answers.map(({ reading }) => reading).filter((reading) => reading.status !== 0), limit, windowMs);
  const kind = `The target gives its quota back bit by bit (${account.limiter.kind}: ${account.limiter.evidence.at(-1) ?? 'no step showed how'})`;
  if (!measure) {
    const detail = `${kind}; no full bucket was followed to a refusal, so its capacity was not measured. Send faster than the limit (e.g. --rate 1.1x).`;
    return [verdict('minute-max', rules, 'not-checked', title, detail), verdict('first-refusal', [...rules, 'RL-1'], 'not-checked', title, detail)];
  }
  const { admitted, givenBack } = measure;
  const what = `from full, ${count(admitted, 'request')} admitted before the first 429, over ${describeDuration(measure.refusal.receivedAt - measure.from.sentAt)} in which up to ${givenBack.toLocaleString('en-US')} could come back (${describeDuration(windowMs)} a window, learned from the run)`;
  const over = admitted > limit + givenBack;
  const early = admitted < limit;
  return [
    verdict('minute-max', rules, over ? 'fail' : 'pass', title, `${kind}; ${what}.`, over ? [`expected at most ${limit + givenBack}, got ${admitted}`] : []),
    verdict('first-refusal', [...rules, 'RL-1'], early ? 'fail' : 'pass', title, `${kind}; ${what}.`, early ? [`expected the first 429 no earlier than request ${limit + 1}, got it at request ${admitted + 1}`] : []),
  ];
}

function refusalHeaders(result: KeyResult): Verdict {
  const title = 'Every 429 carries Retry-After (delta-seconds or an HTTP-date) and the X-RateLimit headers';
  const rules = rulesOf('refusal-headers');
  if (result.refused === 0) return verdict('refusal-headers', rules, 'not-checked', title, 'No request was refused.');
  const findings = Object.entries(result.refusalFindings).filter(([rule]) => rules.includes(rule));
  const other = Object.entries(result.refusalFindings).filter(([rule]) => !rules.includes(rule));
  const evidence = [...findings, ...other].map(([rule, finding]) => `${rule} × ${finding.count}: ${finding.example}`);
  if (findings.length > 0 || other.length > 0) {
    return verdict('refusal-headers', [...rules, ...other.map(([rule]) => rule)], 'fail', title, `Problems on the ${count(result.refused, '429')}:`, evidence);
  }
  return verdict('refusal-headers', rules, 'pass', title, `All ${count(result.refused, '429')} had a valid Retry-After and all three X-RateLimit headers.`);
}

function headersOnEveryAnswer(result: KeyResult, account: KeyAccount, plan: PlanId): Verdict {
  const documented = plans[plan].documented;
  const title = documented
    ? `Every answer carries X-RateLimit-Limit, -Remaining and -Reset, with the limit ${documented.perMinute} or ${documented.perDay.toLocaleString('en-US')}`
    : 'Every answer carries X-RateLimit-Limit, -Remaining and -Reset';
  const rules = documented ? ['RL-4', 'RL-5'] : ['RL-4'];
  const answered = result.admitted + result.refused;
  if (answered === 0) return verdict('headers-on-every-answer', rules, 'not-checked', title, 'No answer came.');
  const evidence: string[] = [];
  if (result.withoutRateLimitHeaders > 0) evidence.push(`${count(result.withoutRateLimitHeaders, 'answer')} lacked a readable X-RateLimit-Limit, -Remaining or -Reset`);
  for (const [limit, times] of account.undocumentedLimits) evidence.push(`X-RateLimit-Limit ${limit} on ${count(times, 'answer')}: not a documented quota of this plan`);
  if (evidence.length > 0) return verdict('headers-on-every-answer', rules, 'fail', title, `${evidence.length} problem${evidence.length > 1 ? 's' : ''}:`, evidence);
  return verdict('headers-on-every-answer', rules, 'pass', title, `All ${count(answered, 'answer')} had them${documented ? ', naming a documented limit' : ''}.`);
}

function ban(result: KeyResult, account: KeyAccount): Verdict {
  const title = 'Repeated requests after a 429 may get the key banned for a while';
  const rules = ['ERR-GAP-3'];
  if (account.bans.length === 0) {
    const why =
      result.spec.behaviour === 'naive' && result.refused > 0
        ? `This naive client kept sending after ${count(result.refused, '429')}, and the target never refused it for longer than a window: no ban seen.`
        : result.spec.behaviour === 'naive'
          ? 'This naive client was never refused, so it could not provoke a ban.'
          : 'This compliant client waited as told and was never refused for longer than a window: no ban.';
    return verdict('ban', rules, 'observed', title, why);
  }
  const first = account.bans[0] as (typeof account.bans)[number];
  const lengths = account.bans.map((b) => (b.endedAt === undefined ? undefined : b.endedAt - b.startedAt)).filter((v): v is number => v !== undefined);
  const minuteMs = account.minuteLength.estimateMs;
  const inMinutes = minuteMs && first.announcedMs ? ` (about ${Math.round(first.announcedMs / minuteMs)} of the target's minutes)` : '';
  const detail = `${count(account.bans.length, 'ban')}: the first began ${seconds(first.startedAt)} into the run, at the ${ordinal(first.refusalsBefore + 1)} refusal in a row; the target asked to wait ${describeDuration(first.announcedMs)}${inMinutes}${lengths.length ? `, and admitted again after ${describeDuration(largest(lengths))}` : ''}. ${result.spec.behaviour === 'naive' ? 'This is the temporary ban the spec warns naive clients about.' : 'The client honoured Retry-After, yet was banned.'}`;
  return verdict(
    'ban',
    rules,
    result.spec.behaviour === 'naive' ? 'observed' : 'warn',
    title,
    detail,
    account.bans.map((b) => `${seconds(b.startedAt)}: ${count(b.refusals, 'ban-like refusal')}${b.endedAt !== undefined ? `, admitted again at ${seconds(b.endedAt)}` : ', still refused at the end of the run'}`),
  );
}

/** Which kind of limiter the answers showed, with the answers that showed it: where the spec is silent (RL-GAP-2). */
function limiterKind(account: KeyAccount): Verdict {
  const { kind, stacked, evidence } = account.limiter;
  const title = 'What kind of rate limiter the target runs: windows fixed or sliding, a counter or a bucket';
  const what = kind === 'unknown' ? 'The answers did not show the kind of limiter' : `What the run saw fits ${KIND_MEANING[kind]}`;
  return verdict('limiter-kind', rulesOf('limiter-kind'), 'observed', title, `${what}${stacked ? ', with a minute and a day limiter stacked' : ''}.`, evidence);
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
