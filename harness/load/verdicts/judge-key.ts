/**
 * What a load run shows about a key's quota, as verdicts that cite the rules of fixtures/rules.yaml through the
 * checks that serve them (lib/checks/registry.ts). Every figure comes from the target's own answers (see windows.ts
 * and days.ts); a MUST broken fails, what the spec leaves open (bans, Enterprise quotas) is observed and never failed.
 * Each idea's verdicts live in a file of their own beside this one: the quota, Remaining, Reset, retries after a
 * wait, the headers, and what is only observed.
 */
import { plans, type PlanId } from '../../../lib/plans.ts';
import type { DaySegment } from '../days.ts';
import type { KeyResult } from '../runner.ts';
import type { KeyAccount, QuotaWindow } from '../windows.ts';
import type { LimiterKind } from '../../../lib/rate-limiter/kinds.ts';
import { answersOf } from './answers.ts';
import { headersOnEveryAnswer, refusalVerdicts } from './headers.ts';
import { ban, limiterKind } from './observed.ts';
import { capacityQuota, crossingUntold, customQuota, dailyQuota, earlyByUnread, firstRefusal, firstRefusalFromSums, firstRefusalUnplaced, minuteMax, minuteMaxUnplaced, overAdmission, refusedEarly, refusedLate } from './quota.ts';
import { unreadText } from './unread.ts';
import { shortWindowScale, shortWindowsText } from './short-windows.ts';
import { refilledRemainingSteps, remainingStatus, remainingSteps, remainingUnplaced } from './remaining.ts';
import { resetFromSums, resetStable } from './reset.ts';
import { retryAfterAdmitted, retryAfterAdmittedFromSums } from './retry.ts';
import type { JudgeContext, Verdict, WindowCheck } from './verdict.ts';

/** Kinds of limiter that give their quota back bit by bit rather than whole at a window's end. */
const GRADUAL_KINDS: readonly LimiterKind[] = ['bucket', 'sliding-log', 'sliding-counter'];

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
  const shortScale = shortWindowScale(context.timeScale);
  const windowChecks = account.windows.map((window) => (gradual ? [] : judgeWindow(window, plan, account, shortScale)));
  const verdicts: Verdict[] = [];
  const answers = answersOf(result, context);
  const reset = result.summed ? resetFromSums(result.summed) : resetStable(account, answers);

  if (documented) {
    if (gradual) verdicts.push(...capacityQuota(plan, account, answers));
    else {
      const most = minuteMax(plan, minuteWindows, windowChecks, account);
      verdicts.push(reset.status === 'fail' ? minuteMaxUnplaced(most) : most);
      verdicts.push(reset.status === 'fail' ? firstRefusalUnplaced(plan) : firstRefusal(plan, minuteWindows, account.model, shortScale));
    }
    verdicts.push(dailyQuota(plan, days, account, context, result));
  } else verdicts.push(customQuota(plan, account, result));
  verdicts.push(result.summed ? retryAfterAdmittedFromSums(result, result.summed) : retryAfterAdmitted(result, account));
  verdicts.push(gradual ? refilledRemainingSteps(account, answers) : reset.status === 'fail' ? remainingUnplaced() : remainingSteps(account, shortScale));
  verdicts.push(reset);
  verdicts.push(...refusalVerdicts(result));
  verdicts.push(headersOnEveryAnswer(result, account, plan));
  verdicts.push(ban(result, account));
  verdicts.push(limiterKind(account));
  return { verdicts, windowChecks };
}

function judgeWindow(window: QuotaWindow, plan: PlanId, account: KeyAccount, shortScale: number | undefined): WindowCheck[] {
  const { model } = account;
  const checks: WindowCheck[] = [];
  if (window.windowClass === 'minute' && plans[plan].documented) {
    checks.push({ check: 'minute-max', ...overAdmission(window, model, shortScale) });
    if (!window.merged && window.refused > 0 && window.seenFromStart && window.fromSums) checks.push({ check: 'first-refusal', ...firstRefusalFromSums(window, model, shortScale) });
    else if (!window.merged && window.admittedBeforeFirstRefusal !== undefined && window.seenFromStart) {
      const before = window.admittedBeforeFirstRefusal;
      checks.push(
        refusedEarly(window)
          ? { check: 'first-refusal', status: 'fail', message: `first 429 at request ${before + 1}, expected ${window.limit + 1}` }
          : earlyByUnread(window)
            ? { check: 'first-refusal', status: 'not-checked', message: `first 429 at request ${before + 1}, expected ${window.limit + 1}, but ${unreadText(window.unread)}` }
            : refusedLate(window, model, shortScale)
              ? { check: 'first-refusal', status: 'fail', message: `first 429 after ${window.admitted} admissions, expected ${window.limit + 1}` }
              : crossingUntold(window, model, shortScale)
                ? { check: 'first-refusal', status: 'not-checked', message: `first 429 after ${window.admitted} admissions: ${shortWindowsText(shortScale!)}` }
                : before > window.limit
                  ? { check: 'first-refusal', status: 'pass', message: `first 429 at request ${before + 1}, after requests aged out` }
                  : { check: 'first-refusal', status: 'pass', message: `first 429 at request ${before + 1}` },
      );
    }
  }
  checks.push({ check: 'remaining-steps', ...remainingStatus(window, model, account.shortestBucketWindowMs, shortScale) });
  return checks;
}
