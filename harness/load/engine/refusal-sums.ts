/**
 * The 429s the generators summed, held to the rules a 429 is held to (lib/response-checks.ts) on what the
 * sums say, never through an answer made up to stand for them: a window's Limit and Reset, which every refusal of
 * it carried; the headers a refusal no window holds came with, as sent; each Retry-After as the generator that saw
 * it read it (against the time it came), with how many carried it; and when the first and last of them left and
 * came back. A rule counts as broken by as many refusals as the sums show broke it.
 */
import type { PlanId } from '../../../lib/plans.ts';
import { wholeNumber } from '../../../lib/rate-limit-headers.ts';
import { limitQuotaProblem, rateLimitHeaderProblems, resetTimeProblem, retryAfterProblem } from '../../../lib/response-checks.ts';
import { listed } from '../../../lib/violation.ts';
import type { Finding } from '../finding.ts';
import { noteViolations } from '../refusal-check.ts';
import type { LooseTally, Phase, WindowTally } from './result.ts';

/** A window's refusals: its Limit against the plan, its Reset against their times, and their Retry-After. */
export function noteWindowRefusals(findings: Record<string, Finding>, window: WindowTally, plan: PlanId): void {
  const { refused } = window;
  if (refused.count === 0) return;
  noteViolations(findings, listed(limitQuotaProblem(window.limit, plan)), refused.count);
  noteReset(findings, window.reset, refused);
  noteWaits(findings, refused.waits);
}

/** 429s no window holds (their headers missing, unreadable, or Remaining above the Limit): their headers as sent. */
export function noteLooseRefusals(findings: Record<string, Finding>, loose: LooseTally, plan: PlanId): void {
  if (loose.status !== 429 || loose.count === 0) return;
  noteViolations(findings, rateLimitHeaderProblems(429, headersOf(loose), plan), loose.count);
  noteReset(findings, wholeNumber(loose.headers.reset ?? undefined), loose);
  noteWaits(findings, { [loose.wait]: loose.count });
}

/** The headers an answer no window holds came with, as sent (absent: undefined). */
export function headersOf(loose: LooseTally): Record<string, string | undefined> {
  return { 'x-ratelimit-limit': loose.headers.limit ?? undefined, 'x-ratelimit-remaining': loose.headers.remaining ?? undefined, 'x-ratelimit-reset': loose.headers.reset ?? undefined };
}

/**
 * A Reset every refusal of `phase` carried, against their times: broken by them all when it does not fit even the
 * first sent and the last answered, by at least one when it does not fit the last sent or the first answered.
 */
function noteReset(findings: Record<string, Finding>, reset: number | undefined, phase: Phase): void {
  if (phase.firstSent === null || phase.lastSent === null || phase.firstDone === null || phase.lastDone === null) return;
  const byAll = resetTimeProblem(reset, phase.firstSent, phase.lastDone);
  if (byAll) noteViolations(findings, [byAll], phase.count);
  else noteViolations(findings, listed(resetTimeProblem(reset, phase.lastSent, phase.firstDone)), 1);
}

/** Retry-After as the generators read it: "-" absent, "x:<text>" neither form (the text as sent), else a wait. */
function noteWaits(findings: Record<string, Finding>, waits: Readonly<Record<string, number>>): void {
  for (const [wait, times] of Object.entries(waits)) {
    if (wait === '-') noteViolations(findings, listed(retryAfterProblem(undefined)), times);
    else if (wait.startsWith('x:')) noteViolations(findings, listed(retryAfterProblem(wait.slice(2))), times);
  }
}
