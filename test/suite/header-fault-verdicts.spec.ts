/**
 * A server whose rate-limit headers are wrong on every response (X-RateLimit-Reset as seconds until the reset, as
 * one popular rate-limit plugin sends it) fails RL-7, and every other rule still gets a verdict: a functional test
 * reads none of those headers, so the finding fails it without stopping it. The tests that read Reset themselves
 * are not credited.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

test('Reset as seconds until the reset: RL-7 fails, the functional rules are still judged, the measurements that read Reset are not', async () => {
  test.setTimeout(180_000);
  const target = await startVariant({
    transforms: [
      () => ({
        response(response) {
          const reset = Number(response.headers['x-ratelimit-reset']);
          if (!Number.isInteger(reset)) return response;
          return { ...response, headers: { ...response.headers, 'x-ratelimit-reset': String(Math.max(0, reset - Math.floor(Date.now() / 1000))) } };
        },
      }),
    ],
  });
  try {
    await runSuite({ label: 'reset-as-seconds-until', baseUrl: target.baseUrl, titles: ['LIST-1', 'CREATE-1', 'GET-1', 'RL-GAP-1'].map((id) => ruleTitle(id)), allReporters: true });
  } finally {
    await target.close();
  }
  const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, 'reset-as-seconds-until', 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
  const verdict = (id: string) => report.rules.find((row) => row.id === id)?.verdict;
  expect(verdict('RL-7')).toBe('fail');
  for (const id of ['LIST-1', 'CREATE-1', 'GET-1']) expect(verdict(id), id).toBe('pass');
  expect(report.rules.find((row) => row.id === 'LIST-1')!.tests.every((item) => item.outcome === 'failed'), 'the tests themselves failed, on RL-7').toBe(true);
  expect(verdict('RL-GAP-1'), 'a measurement that reads Reset is not credited').not.toBe('observed');
});
