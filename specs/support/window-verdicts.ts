/**
 * The verdicts of one measured window (minute-window.ts: a probe that found it fresh, the rest of its quota at once,
 * one request more), through the window analysis (lib/rate-limiter/burst.ts): the plan's quota, the 429 after it
 * and its headers, Remaining's countdown and Reset staying put. The suite's minute tests judge with them, and the
 * invariance properties (test/judge/invariance/suite-window-properties.ts) run them over real captures.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { Quota } from '../../lib/plans.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { dayBoundsTheWindow } from './daily-quota.ts';
import type { Exchange } from './exchange.ts';
import type { RuleJudge } from './judge.ts';
import type { MinuteMeasurement } from './minute-window.ts';
import { answer } from './pets.ts';
import { count } from './plan-quotas.ts';
import { brokenPromiseAfterBurst } from './remaining-promise.ts';
import { readingOf } from './window-analysis.ts';

/** What the window's verdicts are told: a test's rule judge, or a property's record of what failed. */
export type WindowJudge = Pick<RuleJudge, 'expect' | 'unchecked'>;

/** The count of one fresh window, the 429 after it, and the headers throughout. */
export function judgeQuota(measured: MinuteMeasurement, quota: Quota, check: WindowJudge): void {
  const { perMinute } = quota;
  const { analysis, burst, extra, probe } = measured;
  const firstRefused = burst.find((exchange) => exchange.response.status === 429);
  // A key whose day is nearly spent cannot show a minute's quota: the burst counted the day's bucket (daily-quota.ts).
  const dayBound = analysis.refusedInBurst > 0 ? dayBoundsTheWindow([probe, firstRefused], quota) : undefined;
  if (dayBound) check.unchecked(dayBound);
  check.expect(
    analysis.refusedInBurst === 0 || dayBound !== undefined,
    `expected all ${count(perMinute)} requests of a fresh window admitted, got ${count(analysis.admitted)} admitted and ${analysis.refusedInBurst} refused`,
    { evidence: firstRefused },
  );
  // A bucket may admit it on a token it gave back during the burst (lib/rate-limiter/burst.ts).
  const onTokenBack = extra.response.status !== 429 && analysis.givenBack > 0;
  check.expect(extra.response.status === 429 || onTokenBack, `expected request ${count(perMinute + 1)} in one window to be refused with 429, got ${answer(extra)}`, { evidence: extra });
  if (extra.response.status !== 429) {
    for (const rule of [RULE['retry-after-present'], RULE['retry-after-format']]) check.unchecked(`request ${count(perMinute + 1)} in one window was admitted, so there was no 429 to read`, rule);
  } else {
    const retryAfter = extra.response.headers['retry-after'];
    if (check.expect(retryAfter !== undefined, 'expected the 429 to carry Retry-After, got none', { rule: RULE['retry-after-present'], evidence: extra })) {
      check.expect(retryAfterMs(retryAfter, extra.receivedAt) !== undefined, `expected Retry-After as delta-seconds or an HTTP-date, got "${retryAfter}"`, { rule: RULE['retry-after-format'], evidence: extra });
    }
    const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((header) => extra.response.headers[header] === undefined);
    check.expect(missing.length === 0, `expected the X-RateLimit-* headers on the 429 too, missing ${missing.join(', ')}`, { rule: RULE['rate-limit-headers-present'], evidence: extra });
  }
  if (dayBound) {
    for (const rule of [RULE['remaining-countdown'], RULE['reset-stable']]) check.unchecked(dayBound, rule);
    return;
  }
  judgeCountdown(measured, quota, check, RULE['remaining-countdown']);
  check.expect(analysis.resetProblem === undefined, analysis.resetProblem ?? '', { rule: RULE['reset-stable'], evidence: movedReset(probe, burst) });
}

/**
 * RL-6 in one burst: the admitted answers' Remaining values count down from the probe's (as a set: they come in any
 * order), and the request after the burst is admitted while the lowest of them promised room (remaining-promise.ts).
 */
export function judgeCountdown(measured: MinuteMeasurement, quota: Quota, check: WindowJudge, rule: string): void {
  const { remainingProblem } = measured.analysis;
  check.expect(remainingProblem === undefined, remainingProblem ?? '', { rule, evidence: repeatedRemaining(measured.burst) });
  const overstated = brokenPromiseAfterBurst(measured, quota);
  check.expect(overstated === undefined, overstated?.message ?? '', { rule, evidence: overstated?.evidence });
}

/** An admitted response whose Remaining another admitted response also carried, as evidence. */
function repeatedRemaining(burst: readonly Exchange[]): Exchange | undefined {
  const seen = new Set<number | undefined>();
  for (const exchange of burst.filter((item) => item.response.status !== 429)) {
    const remaining = readingOf(exchange).remaining;
    if (seen.has(remaining)) return exchange;
    seen.add(remaining);
  }
  return burst[0];
}

/** An answer of the burst whose Reset is not the probe's, as evidence. */
export function movedReset(probe: Exchange, burst: readonly Exchange[]): Exchange | undefined {
  return burst.find((exchange) => readingOf(exchange).reset !== readingOf(probe).reset);
}
