/**
 * Keys are a budget planned before the run. With one key per plan (what a CI secret usually holds) and the quota
 * tests on, every daily key also serves other tests, so each day is spent after all of them: a correct server is
 * certified Conforming. A second run within those keys' day finds them spent before it starts: "Not certified"
 * (exit 3), naming the spent keys and when to run again, and no rule failed for it. So too when the server's
 * refusal of a spent day carries the minute's headers (Limit 60, Remaining 20, Reset seconds away), as a ban's
 * may: the run was admitted the key's whole day, so the refusal is the day, and the next run meets the same
 * day's end.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { FixedWindowLimiter, type RateLimiter } from '../../reference-server/limiter.ts';
import { BUNDLED_CLOCK_RATE } from '../../specs/support/settings.ts';
import { DailyQuotaLimiter } from '../support/daily-quota-limiter.ts';
import { failed, ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const ONE_KEY_PER_PLAN: KeysByPlan = { free: ['demo-free-1'], pro: ['demo-pro-1'], business: ['demo-business-1'], enterprise: ['demo-enterprise-1'] };
/** Business's day at the bundled clock takes about 25 s; the default budget against a target (60 s) would leave it out under load. */
const QUOTA_BUDGET = { PETSTORE_QUOTA_BUDGET_SECONDS: '300' };

const reportOf = (label: string): ConformanceReport => JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;

const SERVERS: Array<{ name: string; label: string; limiter?: RateLimiter }> = [
  { name: 'the reference server', label: 'one-key-per-plan' },
  { name: "a server whose refusals of a spent day carry the minute's headers", label: 'one-key-per-plan-minute-headers', limiter: new DailyQuotaLimiter(new FixedWindowLimiter()) },
];

for (const { name, label, limiter } of SERVERS) test(`one key per plan with the quota tests on certifies ${name}, and a second run the same day is "Not certified", naming the spent keys`, async () => {
  test.setTimeout(900_000);
  const target = await startVariant({ clockRate: BUNDLED_CLOCK_RATE, suiteKeys: ONE_KEY_PER_PLAN, ...(limiter ? { limiter } : {}) });
  try {
    const env = { ...target.clockEnv, ...QUOTA_BUDGET };
    const first = await runSuite({ label, baseUrl: target.baseUrl, keys: ONE_KEY_PER_PLAN, quotaTests: true, env, allReporters: true, timeoutMs: 600_000 });
    const days = first.tests.filter((item) => /MUST .* in a day/.test(item.title));
    expect(days.map((item) => `${item.title.split(' ')[0]}: ${item.status}`).sort()).toEqual(
      ['PLAN-BUSINESS: passed', 'PLAN-ENTERPRISE-AGREED: skipped', 'PLAN-FREE: passed', 'PLAN-PRO: passed'],
    );
    expect(first.tests.filter(failed).map((item) => `${item.title}: ${item.errors.join(' ')}`)).toEqual([]);
    expect(reportOf(label).verdict.headline, first.output.slice(-2_000)).toMatch(/^Conforming at MUST level/);
    expect(first.exitCode).toBe(0);

    const titles = ['PLAN-FREE', 'PLAN-PRO', 'PLAN-BUSINESS', 'RL-3', 'RL-5', 'RL-6', 'RL-7', 'RL-8'].map((id) => ruleTitle(id));
    const second = await runSuite({ label: `${label}-again`, baseUrl: target.baseUrl, keys: ONE_KEY_PER_PLAN, quotaTests: true, env, titles, allReporters: true });
    expect(second.tests.filter(failed).map((item) => `${item.title}: ${item.errors.join(' ')}`), 'a spent key is no violation').toEqual([]);
    expect(second.exitCode).toBe(3);
    const report = reportOf(`${label}-again`);
    expect(report.verdict.state).toBe('incomplete');
    expect(report.verdict.failedMust).toEqual([]);
    const note = report.verdict.notes.find((text) => text.startsWith('Spent before this run'));
    for (const variable of ['PETSTORE_API_KEY_FREE', 'PETSTORE_API_KEY_PRO', 'PETSTORE_API_KEY_BUSINESS']) expect(note, second.output.slice(-2_000)).toContain(`the 1st key of ${variable}`);
    expect(note).toMatch(/Run again after \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);
    expect(report.verdict.notes.join('\n'), 'a day used up, never a ban').not.toContain('Banned');
    expect(second.output, 'the verdict line names them too').toContain('Spent before this run');
    const skipped = report.rules.find((row) => row.id === 'PLAN-FREE')!;
    expect(`${skipped.reason ?? ''} ${skipped.skippedTests.map((item) => item.text).join(' ')}`).toMatch(/spent|used up/);
  } finally {
    await target.close();
  }
});
