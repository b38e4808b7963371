/**
 * A key given under the wrong plan (a Pro key as PETSTORE_API_KEY_FREE) answers with another plan's documented
 * Limit: the run ends "Not certified" naming the variable to check, and no rule of the plan fails for it. A
 * server whose Free Limit is simply wrong (no plan's quota) still fails RL-5.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { failed, ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

/** The server's keys are the demo keys, so demo-pro-2 is a Pro key; two keys for Pro and Business keep their days out of the run. */
const PRO_KEY_AS_FREE: KeysByPlan = { free: ['demo-pro-2'], pro: ['demo-pro-1', 'demo-pro-3'], business: ['demo-business-1', 'demo-business-2'], enterprise: [] };
const TITLES = [ruleTitle('RL-5'), ruleTitle('PLAN-FREE'), ruleTitle('RL-8')];

const reportOf = (label: string): ConformanceReport => JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;

test('a Pro key given as PETSTORE_API_KEY_FREE is "Not certified", naming the variable, and fails no rule', async () => {
  test.setTimeout(180_000);
  const target = await startVariant();
  try {
    const run = await runSuite({ label: 'pro-key-as-free', baseUrl: target.baseUrl, keys: PRO_KEY_AS_FREE, quotaTests: true, titles: TITLES, allReporters: true });
    expect(run.tests.filter(failed).map((item) => `${item.title}: ${item.errors.join(' ')}`), run.output.slice(-3_000)).toEqual([]);
    expect(run.exitCode).toBe(3);
    const report = reportOf('pro-key-as-free');
    expect(report.verdict.state).toBe('incomplete');
    expect(report.verdict.failedMust).toEqual([]);
    const note = report.verdict.notes.find((text) => text.startsWith('Likely a configuration error'));
    expect(note, run.output.slice(-3_000)).toContain('the 1st key of PETSTORE_API_KEY_FREE answers as a Pro key (X-RateLimit-Limit 300)');
    expect(note).toContain('Check PETSTORE_API_KEY_FREE');
    expect(run.output, 'the verdict line names it too').toContain('Likely a configuration error');
    const freeTests = run.tests.filter((item) => item.title.startsWith('PLAN-FREE') || item.title.includes('for a Free key'));
    expect(freeTests.length).toBeGreaterThanOrEqual(3);
    for (const item of freeTests) {
      expect(item.status, item.title).toBe('skipped');
      expect(item.annotations.map((annotation) => annotation.description ?? '').join(' '), item.title).toContain('check that PETSTORE_API_KEY_FREE holds Free keys');
    }
  } finally {
    await target.close();
  }
});

test('a server whose Free keys get X-RateLimit-Limit 100, no plan\'s quota, still fails RL-5 and names no configuration error', async () => {
  test.setTimeout(120_000);
  const target = await startVariant({
    transforms: [
      () => ({
        response: (response, request) =>
          /demo-free-/.test(request.headers.authorization ?? '') && response.headers['x-ratelimit-limit'] ? { ...response, headers: { ...response.headers, 'x-ratelimit-limit': '100' } } : response,
      }),
    ],
  });
  try {
    const run = await runSuite({ label: 'free-limit-says-100', baseUrl: target.baseUrl, titles: [ruleTitle('RL-5', 'X-RateLimit-Limit for a Free key')], allReporters: true });
    expect(run.tests.map((item) => `${item.title.split(' ')[0]}: ${item.status} ${item.namedRules.join(' ')}`)).toEqual(['RL-5: failed RL-5']);
    expect(reportOf('free-limit-says-100').verdict.notes.join(' ')).not.toContain('configuration error');
  } finally {
    await target.close();
  }
});
