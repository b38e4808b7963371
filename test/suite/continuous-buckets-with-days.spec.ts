/**
 * Limiters refilled continuously (a token bucket per window, as Envoy and AWS API Gateway count; GCRA, as
 * redis-cell does) with the quota tests on and two keys per paid plan, at the bundled server's fast clock and at
 * one nearer real time: the plan and daily tests find no failure without evidence (a day that gives requests back
 * lets a few more than its quota through while it is used up). A day nearly spent before a minute test:
 * day-nearly-spent.spec.ts.
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

/** The bundled server's clock (a minute in a quarter of a second), and one nearer real time (a minute in three seconds). */
const CLOCKS = [
  { name: 'a fast clock', rate: BUNDLED_CLOCK_RATE, plans: ['PLAN-FREE', 'PLAN-PRO', 'PLAN-BUSINESS'] },
  // Business's hundred three-second windows would take five minutes: Free's and Pro's days show the same.
  { name: 'a clock near real time', rate: 20, plans: ['PLAN-FREE', 'PLAN-PRO'] },
];

for (const clock of CLOCKS) {
  test(`token buckets and GCRA with the quota tests on, two keys per paid plan, at ${clock.name}: no plan or daily test fails`, async () => {
    test.setTimeout(420_000);
    const limiter = new LimiterPerPlan(new Map<number, RateLimiter>([[60, new GcraLimiter()], [300, new TokenBucketLimiter()]]), new GcraLimiter());
    const target = await startVariant({ limiter, clockRate: clock.rate, suiteKeys: TWO_KEYS_PER_PAID_PLAN });
    try {
      const run = await runSuite({
        label: `continuous-buckets-with-days-${clock.rate}`,
        baseUrl: target.baseUrl,
        keys: TWO_KEYS_PER_PAID_PLAN,
        quotaTests: true,
        titles: [...clock.plans, 'RL-5', 'RL-8'].map((id) => ruleTitle(id)),
        env: { ...target.clockEnv, PETSTORE_QUOTA_BUDGET_SECONDS: '300' },
        timeoutMs: 400_000,
      });
      expect(run.tests.filter(failed).map((item) => `${item.title}: ${(item.errors[0] ?? '').split('\n')[0]}`), run.output.slice(-2_000)).toEqual([]);
      const days = run.tests.filter((item) => /in a day/.test(item.title)).map((item) => `${item.title.split(' ')[0]} ${item.status}`).sort();
      expect(days).toEqual(clock.plans.map((plan) => `${plan} passed`).sort());
    } finally {
      await target.close();
    }
  });
}
