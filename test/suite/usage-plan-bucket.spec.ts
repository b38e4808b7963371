/**
 * A token bucket with a daily quota, as API gateways' usage plans count (a rate refilled continuously, and a
 * quota per day whose refusal carries the bucket's headers with a Retry-After to the day's end), is certifiable
 * with one key per plan, the quota tests on: every plan's day but Business's held, no key taken for banned or
 * spent (the day's refusal, right after the run was admitted the key's whole day, is that day), and the verdict
 * Conforming within a scope that names what this clock cannot show. At a minute of three real seconds, Business's
 * day may take longer than the budget; and a Free token comes back every 50 real ms, sooner than a loaded machine sends
 * a burst of 61, so request 61 of a minute may be admitted and no minute's 429 read (RL-1 and RL-2's minute part;
 * their day part is read from the day's refusal). At real time a token comes back every second.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { DailyQuotaLimiter } from '../support/daily-quota-limiter.ts';
import { TokenBucketLimiter } from '../support/token-bucket-limiter.ts';
import { failed, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const ONE_KEY_PER_PLAN: KeysByPlan = { free: ['demo-free-1'], pro: ['demo-pro-1'], business: ['demo-business-1'], enterprise: [] };
const CLOCK_RATE = 20;
const SCOPE = 'PLAN-BUSINESS:day RL-1:minute RL-2:minute';

test(`a token bucket with a daily quota, one key per plan, the quota tests on: Conforming within the scope ${SCOPE}`, async () => {
  test.setTimeout(1_800_000);
  const target = await startVariant({ limiter: new DailyQuotaLimiter(new TokenBucketLimiter()), clockRate: CLOCK_RATE, suiteKeys: ONE_KEY_PER_PLAN });
  try {
    const label = 'usage-plan-bucket';
    const run = await runSuite({
      label,
      baseUrl: target.baseUrl,
      keys: ONE_KEY_PER_PLAN,
      quotaTests: true,
      allReporters: true,
      // Free's day takes about 50 real seconds at this clock, Pro's about 100 and Business's 300 or more.
      env: { ...target.clockEnv, PETSTORE_QUOTA_BUDGET_SECONDS: '200', PETSTORE_OUT_OF_SCOPE: SCOPE },
      timeoutMs: 1_700_000,
    });
    expect(run.tests.filter(failed).map((item) => `${item.title}: ${(item.errors[0] ?? '').split('\n')[0]}`), run.output.slice(-2_000)).toEqual([]);
    const days = run.tests.filter((item) => /MUST .* in a day/.test(item.title)).map((item) => `${item.title.split(' ')[0]} ${item.status}`).sort();
    // Business's day fits the budget or not as the machine's load has it (its hundred windows against 200 s): in scope either way.
    expect(days.filter((day) => !day.startsWith('PLAN-BUSINESS '))).toEqual(['PLAN-ENTERPRISE-AGREED skipped', 'PLAN-FREE passed', 'PLAN-PRO passed']);
    const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as CertifiedReport;
    // Why Business's day went as it did, for a reader of a failure: the budget, or what the target did.
    const business = report.rules.find((row) => row.id === 'PLAN-BUSINESS');
    const why = `PLAN-BUSINESS: ${business?.verdict} ${business?.reason ?? ''}\n${run.output.slice(-2_000)}`;
    expect(report.verdict.headline, why).toMatch(/^Conforming within that scope/);
    // Business's day test cites RL-1 too: skipped, it leaves RL-1's day out of scope through PLAN-BUSINESS:day, never unchecked.
    const businessDay = days.find((day) => day.startsWith('PLAN-BUSINESS '));
    const rl1 = report.certificate?.rules.find((rule) => rule.id === 'RL-1');
    expect(rl1?.line).toContain(businessDay === 'PLAN-BUSINESS passed' ? 'day checked by this run' : 'day not in scope through PLAN-BUSINESS:day');
    expect(report.verdict.notes.join('\n'), `no key banned, none spent\n${why}`).not.toMatch(/Banned|Spent before/);
    expect(run.exitCode).toBe(0);
  } finally {
    await target.close();
  }
});
