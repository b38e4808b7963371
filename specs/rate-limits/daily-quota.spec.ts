/**
 * The daily quota of each documented plan (tests tagged @quota; PETSTORE_QUOTA_TESTS=1, always on for the
 * bundled server). The key's day is used up minute window by minute window; no more than the daily quota may
 * be admitted, and exactly that many when the key is known fresh (bundled server, PETSTORE_FRESH_KEYS=1).
 * The day is consumed at the minute window's real length (its headers', else learned from the target's minute
 * refusals); a test whose estimated cost at that length exceeds PETSTORE_QUOTA_BUDGET_SECONDS is skipped with its
 * estimate. A key that other tests need too has its day spent after all of them (key-roles.ts, playwright.config.ts).
 */
import { RULE } from '../../lib/checks/registry.ts';
import { plans } from '../../lib/plans.ts';
import { consumeDay, learnWindowMs, maxDayWaitMs } from '../support/daily-quota.ts';
import { freshWindow } from '../support/minute-window.ts';
import { failBroken } from '../support/target-broke.ts';
import { QUOTA, rule, test } from '../support/test.ts';
import { describesMinuteWindow, readingOf } from '../support/window-analysis.ts';
import { article, count, ENTERPRISE_NOT_AGREED, MEASURED_PLANS, planRule, quotaInRun, quotaWords } from '../support/plan-quotas.ts';

/** Requests per second the suite sends in a burst on this kind of machine, with room to spare. */
const ASSUMED_REQUESTS_PER_SECOND = 2_000;
/** In the target's time: two minute windows. */
const MINUTE_WINDOW_WAIT_MS = 120_000;

for (const plan of MEASURED_PLANS) {
  const name = plans[plan].name;
  const perDayWords = quotaWords(plan, (quota) => quota.perDay, 'its agreed per-day quota of');
  test(...rule(
    planRule(plan),
    `${article(name)} ${name} key is admitted at most ${perDayWords} requests in a day (exactly that many on a fresh key), then refused`,
    { tag: [QUOTA], also: ['RL-1'] }), async ({ keys, check, target }, testInfo) => {
      const { quotaTests, quotaBudgetSeconds, freshKeys } = target.settings;
      const quota = quotaInRun(plan, target.settings.enterpriseQuota);
      if (!quota) return test.skip(true, ENTERPRISE_NOT_AGREED);
      const { perMinute, perDay } = quota;
      test.skip(!quotaTests, 'set PETSTORE_QUOTA_TESTS=1 to run the tests that use up a daily quota');
      const { client, admittedEarlier, firstAdmittedAt } = await keys.daily(plan);
      const { clock } = target;
      // Other tests' requests on the key, and this test's own below, count in the day from the first of them.
      const countedSince = clock.at(admittedEarlier > 0 && firstAdmittedAt !== undefined ? firstAdmittedAt : Date.now());
      test.setTimeout(testInfo.timeout + clock.toRealMs(MINUTE_WINDOW_WAIT_MS));
      const fresh = await freshWindow(client, { quota, maxWaitMs: MINUTE_WINDOW_WAIT_MS });
      if ('unavailable' in fresh) return test.skip(true, fresh.unavailable);
      if ('unlimited' in fresh) {
        check.expect(false, `expected no more than ${count(perDay)} requests admitted in a day, let alone this: ${fresh.unlimited.message}`, { evidence: fresh.unlimited.evidence });
        return check.judgedWhole(planRule(plan));
      }

      // The minute window's length: from headers that describe it, else learned from the target's minute refusals
      // (its admitted answers may describe the day's window), so the day is consumed at the window's real length.
      const probe = readingOf(fresh.probe);
      test.setTimeout(testInfo.timeout + clock.toRealMs(MINUTE_WINDOW_WAIT_MS));
      const { windowMs, admitted: learning } = describesMinuteWindow(probe, quota)
        ? { windowMs: Math.max(1_000, Math.floor((probe.reset! * 1000 - probe.sentAt) / 1000) * 1000), admitted: 0 }
        : await learnWindowMs(client, quota, keys.alone);
      // What other tests of this run were admitted on the key (one key per plan) counts in its day too.
      const admittedBefore = admittedEarlier + fresh.admitted + learning;
      const windows = Math.ceil(perDay / perMinute);
      // In real time: the windows pass at the target clock's rate, the requests at the suite's own pace.
      const estimateMs = clock.toRealMs(windows * windowMs * 1.15) + (perDay / ASSUMED_REQUESTS_PER_SECOND) * 1000;
      const windowWords = clock.rate === 1 ? `${windowMs / 1000} s` : `${windowMs / 1000} s of the target's clock, ${Math.round(clock.toRealMs(windowMs))} ms in real time`;
      test.skip(
        estimateMs > quotaBudgetSeconds * 1000,
        `estimated ${Math.ceil(estimateMs / 1000)} s (${windows} windows of about ${windowWords} and ${count(perDay)} requests) exceeds PETSTORE_QUOTA_BUDGET_SECONDS=${quotaBudgetSeconds}; raise it to run this test`,
      );
      // Long enough for the longest wait consumeDay allows, so a hostile target fails a rule, not the timeout.
      test.setTimeout(testInfo.timeout + estimateMs + clock.toRealMs(maxDayWaitMs({ perMinute, perDay }, admittedBefore, windowMs)));

      const outcome = await consumeDay(client, {
        quota: { perMinute, perDay },
        fresh: freshKeys,
        admittedBefore,
        countedSince,
        rule: planRule(plan),
        windowMs,
        alone: keys.alone,
        progress: (line) => console.log(`${name} daily quota: ${line}`),
      });
      keys.markExhausted(client);
      if (outcome.broken) return failBroken(check, outcome.broken);
      if (outcome.newDay) {
        check.unchecked(`whether a day admits no more than ${count(perDay)}: ${count(outcome.admitted)} requests were counted, none over the quota before ${outcome.newDay}`);
        return check.judgedWhole();
      }
      check.judgedWhole();
      check.expect(outcome.overQuota === undefined, `expected no more than ${count(perDay)} requests admitted in a day, request ${count(outcome.admitted)} was admitted`, { evidence: outcome.overQuota });
      if (freshKeys) {
        check.expect(!outcome.earlyRefusal, `expected ${count(perDay)} requests admitted in a day on a key unused today, it was refused for the day after ${count(outcome.admitted)}`, { evidence: outcome.dayRefusal });
      } else {
        check.observe(`${count(outcome.admitted)} requests were admitted before the day's refusal (the key may have been used earlier today)`, RULE['limiter-kind']);
      }
      console.log(`${name} daily quota: ${count(outcome.admitted)} admitted over ${outcome.windows} windows`);
    },
  );
}
