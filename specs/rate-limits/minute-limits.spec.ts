/**
 * The minute limit of each documented plan, measured in one fresh window: exactly the documented number of
 * requests admitted, the next refused with 429 and Retry-After, and the headers consistent throughout. The count
 * is what the target admitted and refused, so it stands when a header rule fails in the same test.
 */
import { plans } from '../../lib/plans.ts';
import { retryAfterMs } from '../../lib/rate-limit-headers.ts';
import type { Exchange } from '../support/exchange.ts';
import { dayBoundsTheWindow } from '../support/daily-quota.ts';
import { measureMinuteWindow } from '../support/minute-window.ts';
import { answer } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';
import { readingOf } from '../support/window-analysis.ts';
import { article, count, ENTERPRISE_NOT_AGREED, maxWindowWaitMs, MEASURED_PLANS, planRule, quotaInRun, quotaWords } from '../support/plan-quotas.ts';

for (const plan of MEASURED_PLANS) {
  const name = plans[plan].name;
  test(...rule(
    planRule(plan),
    `${article(name)} ${name} key is admitted exactly ${quotaWords(plan, (quota) => quota.perMinute, 'its agreed per-minute quota of')} requests in one minute window, and the next is refused with 429`,
    { also: ['RL-1', 'RL-2', 'RL-4', 'RL-6', 'RL-7'] }), async ({ keys, check, target }, testInfo) => {
      const quota = quotaInRun(plan, target.settings.enterpriseQuota);
      if (!quota) return test.skip(true, ENTERPRISE_NOT_AGREED);
      const { perMinute } = quota;
      const client = await keys.measuring(plan);
      const measured = await measureMinuteWindow(client, { quota, maxWaitMs: maxWindowWaitMs(testInfo.timeout, target.clock), alone: keys.alone });
      if ('unavailable' in measured) return test.skip(true, measured.unavailable);
      if ('unlimited' in measured) {
        const { message, evidence } = measured.unlimited;
        check.expect(false, message, { evidence });
        check.expect(false, `expected a request beyond the minute quota to be answered 429, got none refused: ${message}`, { rule: 'RL-1', evidence });
        for (const rule of ['RL-2', 'RL-4', 'RL-6', 'RL-7']) check.unchecked('the target refused nothing, so there was no window to measure and no 429 to read', rule);
        return check.judgedWhole();
      }
      // Not a finding about the target: the suite could not fill the window in time and measured again.
      for (const reason of measured.retaken) testInfo.annotations.push({ type: 'retaken', description: reason });
      const { analysis, burst, extra } = measured;
      const firstRefused = burst.find((exchange) => exchange.response.status === 429);
      const dayBound = analysis.refusedInBurst > 0 ? dayBoundsTheWindow([measured.probe, firstRefused], quota) : undefined;
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
        for (const rule of ['RL-1', 'RL-2']) check.unchecked(`request ${count(perMinute + 1)} in one window was admitted, so there was no 429 to read`, rule);
      } else {
        const retryAfter = extra.response.headers['retry-after'];
        if (check.expect(retryAfter !== undefined, 'expected the 429 to carry Retry-After, got none', { rule: 'RL-1', evidence: extra })) {
          check.expect(retryAfterMs(retryAfter, extra.receivedAt) !== undefined, `expected Retry-After as delta-seconds or an HTTP-date, got "${retryAfter}"`, { rule: 'RL-2', evidence: extra });
        }
        const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((header) => extra.response.headers[header] === undefined);
        check.expect(missing.length === 0, `expected the X-RateLimit-* headers on the 429 too, missing ${missing.join(', ')}`, { rule: 'RL-4', evidence: extra });
      }
      // A burst the day cut short counted down the day's bucket, not a minute window.
      if (dayBound) for (const rule of ['RL-6', 'RL-7']) check.unchecked(dayBound, rule);
      check.expect(dayBound !== undefined || analysis.remainingProblem === undefined, analysis.remainingProblem ?? '', { rule: 'RL-6', evidence: repeatedRemaining(burst) });
      check.expect(dayBound !== undefined || analysis.resetProblem === undefined, analysis.resetProblem ?? '', { rule: 'RL-7', evidence: burst.find((exchange) => readingOf(exchange).reset !== readingOf(measured.probe).reset) });
      check.judgedWhole();
    },
  );
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
