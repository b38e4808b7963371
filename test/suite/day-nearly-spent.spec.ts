/**
 * A key whose day is nearly spent cannot show a minute's quota: on a token bucket (as Envoy and AWS API Gateway
 * count) a Pro key with 40 requests left in its day admits 40 of a fresh minute's 300. That is no evidence against
 * the minute limit: PLAN-PRO's minute test is left partly checked, naming the day, never failed.
 */
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import { BUNDLED_CLOCK_RATE } from '../../specs/support/settings.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const KEYS: KeysByPlan = { free: [], pro: ['demo-pro-1'], business: ['demo-business-1'], enterprise: [] };
const LEFT_IN_THE_DAY = 40;

/**
 * Spends the key's day until fewer than `left` requests remain in it, as another client of the key would: its
 * headers name the day once the day has fewer left than the minute bucket, so each round waits for the minute
 * bucket to fill again (a minute of the fast clock is a quarter of a second).
 */
async function spendDay(baseUrl: string, key: string, left: number): Promise<void> {
  let remaining = Number.POSITIVE_INFINITY;
  const until = Date.now() + 120_000;
  while (remaining > left && Date.now() < until) {
    const batch = Number.isFinite(remaining) ? Math.max(1, Math.min(50, remaining - left)) : 50;
    const answers = await Promise.all(Array.from({ length: batch }, () => fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })));
    for (const answer of answers) {
      await answer.arrayBuffer();
      if (answer.headers.get('x-ratelimit-limit') === '10000') remaining = Math.min(remaining, Number(answer.headers.get('x-ratelimit-remaining')));
    }
    if (answers.every((answer) => answer.status === 429)) await new Promise((resolve) => setTimeout(resolve, 300));
  }
  expect(remaining, 'the day was nearly spent').toBeLessThanOrEqual(left);
}

test("a Pro key whose day is nearly spent leaves PLAN-PRO's minute test partly checked, naming the day, not failed", async () => {
  test.setTimeout(240_000);
  const target = await startVariant({ limiter: new TokenBucketLimiter(), clockRate: BUNDLED_CLOCK_RATE });
  try {
    await spendDay(target.baseUrl, 'demo-pro-1', LEFT_IN_THE_DAY);
    const run = await runSuite({ label: 'day-nearly-spent', baseUrl: target.baseUrl, keys: KEYS, titles: [ruleTitle('PLAN-PRO', 'a Pro key is admitted exactly')], env: { ...target.clockEnv, PETSTORE_FRESH_KEYS: '0' } });
    expect(run.tests.map((item) => item.title)).toEqual([expect.stringMatching(/^PLAN-PRO MUST a Pro key is admitted exactly 300/)]);
    expect(run.tests.filter(failed).map((item) => (item.errors[0] ?? '').split('\n')[0]), run.output.slice(-2_000)).toEqual([]);
    const [minute] = run.tests;
    const said = minute!.annotations.filter((annotation) => annotation.type === 'unchecked' || annotation.type === 'skip').map((annotation) => annotation.description ?? '').join('\n');
    expect(said, run.output.slice(-2_000)).toMatch(/day/);
  } finally {
    await target.close();
  }
});
