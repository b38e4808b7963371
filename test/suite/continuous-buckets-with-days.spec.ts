/**
 * Limiters refilled continuously (a token bucket per window, as Envoy and AWS API Gateway count; GCRA, as
 * redis-cell does) with the quota tests on and two keys per paid plan, at the bundled server's fast clock: the
 * plan and daily tests find no failure without evidence. A key whose day is nearly spent cannot show a minute's
 * quota in a fresh window: that leaves the minute test partly checked, never failed.
 */
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { BUNDLED_CLOCK_RATE } from '../../specs/support/settings.ts';
import { GcraLimiter } from '../support/gcra-limiter.ts';
import { LimiterPerPlan } from '../support/limiter-per-plan.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const TWO_KEYS_PER_PAID_PLAN: KeysByPlan = {
  free: ['demo-free-1', 'demo-free-2'],
  pro: ['demo-pro-1', 'demo-pro-2'],
  business: ['demo-business-1', 'demo-business-2'],
  enterprise: [],
};
const TITLES = ['PLAN-FREE', 'PLAN-PRO', 'PLAN-BUSINESS', 'RL-5', 'RL-8'].map((id) => ruleTitle(id));

test('token buckets and GCRA with the quota tests on, two keys per paid plan, at a fast clock: no plan or daily test fails', async () => {
  test.setTimeout(400_000);
  const limiter = new LimiterPerPlan(new Map<number, RateLimiter>([[60, new GcraLimiter()], [300, new TokenBucketLimiter()]]), new GcraLimiter());
  const target = await startVariant({ limiter, clockRate: BUNDLED_CLOCK_RATE, suiteKeys: TWO_KEYS_PER_PAID_PLAN });
  try {
    const run = await runSuite({
      label: 'continuous-buckets-with-days',
      baseUrl: target.baseUrl,
      keys: TWO_KEYS_PER_PAID_PLAN,
      quotaTests: true,
      titles: TITLES,
      env: { ...target.clockEnv, PETSTORE_QUOTA_BUDGET_SECONDS: '300' },
      timeoutMs: 380_000,
    });
    expect(run.tests.filter(failed).map((item) => `${item.title}: ${(item.errors[0] ?? '').split('\n')[0]}`), run.output.slice(-2_000)).toEqual([]);
    const days = run.tests.filter((item) => /in a day/.test(item.title)).map((item) => `${item.title.split(' ')[0]} ${item.status}`).sort();
    expect(days).toEqual(['PLAN-BUSINESS passed', 'PLAN-FREE passed', 'PLAN-PRO passed']);
  } finally {
    await target.close();
  }
});
