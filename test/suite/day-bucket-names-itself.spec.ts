/**
 * A gateway that stacks a minute GCRA and a day GCRA and writes the day's bucket into every admitted answer's
 * headers (RL-5 allows either window's): its Reset moves on with every request, as a bucket's does, and a minute
 * refusal names the minute. RL-7's requests one at a time after the 429's wait then see the day's Limit, not
 * the minute's, and must judge its Reset as that bucket's, not as a Reset that moved within a window. The
 * server's clock runs fast.
 */
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

/**
 * Business: its minute tokens come back every 60 ms, so the requests one at a time after the 429's wait are
 * admitted; its day bucket's Reset moves 0.864 s a request, so ten of them name at most nine seconds: some share
 * one, and the steps are not all taken for windows shorter than a request (which would leave RL-7 unchecked).
 */
const KEYS: KeysByPlan = { free: [], pro: [], business: ['demo-business-1'], enterprise: [] };
/**
 * Twenty times real time: at the bundled server's rate a Business minute token comes back every quarter of a
 * real millisecond, faster than the suite can spend them, and there is no 429 to wait out.
 */
const CLOCK_RATE = 20;
/** A quota that never binds, so each GCRA counts one window only. */
const NEVER = 1e9;

/** A refusal from the minute's GCRA; otherwise the day's decides, and names itself. */
function dayNamedInHeaders(): RateLimiter {
  const minute = new GcraLimiter();
  const day = new GcraLimiter();
  return {
    take: (subject, quota, now) => {
      const byMinute = minute.take(subject, { perMinute: quota.perMinute, perDay: NEVER }, now);
      return byMinute.admitted ? day.take(subject, { perMinute: NEVER, perDay: quota.perDay }, now) : byMinute;
    },
  };
}

test('a day bucket named in the headers, its Reset moving on with every request one at a time, fails neither RL-7 nor RL-6', async () => {
  test.setTimeout(120_000);
  const target = await startVariant({ limiter: dayNamedInHeaders(), clockRate: CLOCK_RATE, suiteKeys: KEYS });
  try {
    const run = await runSuite({ label: 'day-bucket-names-itself', baseUrl: target.baseUrl, keys: KEYS, titles: [ruleTitle('RL-7'), ruleTitle('RL-6')], env: { ...target.clockEnv, PETSTORE_FRESH_KEYS: '1' } });
    expect(run.tests.map((item) => item.rules[0]).sort(), run.output.slice(-2_000)).toEqual(['RL-6', 'RL-7']);
    expect(run.tests.filter(failed).map((item) => (item.errors[0] ?? '').split('\n')[0]), run.output.slice(-2_000)).toEqual([]);
    expect(run.tests.map((item) => item.status), 'judged, not skipped').toEqual(['passed', 'passed']);
    expect(run.tests.flatMap((item) => item.annotations).filter((annotation) => annotation.type === 'unchecked'), 'the steps one at a time were judged').toEqual([]);
  } finally {
    await target.close();
  }
});
