/**
 * A failing rule hides no other rule. A server whose rate-limit headers are wrong on every response (X-RateLimit-Reset
 * as seconds until the reset, as one popular rate-limit plugin sends it) fails RL-7, and every other rule still gets a
 * verdict: a functional test reads none of those headers, and a quota is counted from what the target admits and
 * refuses, not read from them. A server that limits nothing at all fails the plans' quotas and RL-1 for it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport, RuleRow } from '../../lib/verdicts/model.ts';
import { ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant, type VariantOptions } from './support/variant-target.ts';

async function verdictsAgainst(label: string, variant: VariantOptions, titles: readonly string[]): Promise<(id: string) => RuleRow> {
  const target = await startVariant(variant);
  try {
    await runSuite({ label, baseUrl: target.baseUrl, titles, allReporters: true });
  } finally {
    await target.close();
  }
  const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
  return (id) => report.rules.find((row) => row.id === id)!;
}

test('Reset as seconds until the reset: RL-7 fails, the functional rules and the quotas are still judged', async () => {
  test.setTimeout(180_000);
  const row = await verdictsAgainst(
    'reset-as-seconds-until',
    {
      transforms: [
        () => ({
          response(response) {
            const reset = Number(response.headers['x-ratelimit-reset']);
            if (!Number.isInteger(reset)) return response;
            return { ...response, headers: { ...response.headers, 'x-ratelimit-reset': String(Math.max(0, reset - Math.floor(Date.now() / 1000))) } };
          },
        }),
      ],
    },
    [...['LIST-1', 'CREATE-1', 'GET-1', 'RL-3', 'RL-6', 'RL-7'].map((id) => ruleTitle(id)), ruleTitle('PLAN-FREE', 'a Free key is admitted exactly')],
  );
  expect(row('RL-7').verdict).toBe('fail');
  // The daily quotas are not selected, so the minute measurement judges the plan's rule and RL-1 alone.
  for (const id of ['LIST-1', 'CREATE-1', 'GET-1', 'PLAN-FREE', 'RL-1', 'RL-2', 'RL-3', 'RL-6']) expect(row(id).verdict, `${id}: ${row(id).reason ?? ''}`).toBe('pass');
  for (const id of ['LIST-1', 'PLAN-FREE']) expect(row(id).tests.every((item) => item.outcome === 'failed'), `${id}: the tests themselves failed, on RL-7`).toBe(true);
});

test('a server that limits nothing, its headers a static example: the plans and RL-1 fail for admitting everything, and the header rules fail too', async () => {
  test.setTimeout(180_000);
  const row = await verdictsAgainst(
    'limits-nothing',
    { limiter: { take: () => ({ admitted: true, banned: false, limit: 0, remaining: 0, reset: 0 }) } },
    [ruleTitle('PLAN-FREE', 'a Free key is admitted exactly'), ruleTitle('PLAN-PRO', 'a Pro key is admitted exactly'), ruleTitle('RL-3'), ruleTitle('RL-6'), ruleTitle('RL-8')],
  );
  for (const id of ['PLAN-FREE', 'PLAN-PRO', 'RL-1', 'RL-6', 'RL-8']) expect(row(id).verdict, `${id}: ${row(id).reason ?? ''}`).toBe('fail');
  expect(row('PLAN-FREE').failures.map((failure) => failure.text).join('\n')).toContain('none refused');
  expect(row('RL-3').reason ?? '', 'nothing was refused, so there was no Retry-After to wait for').toContain('refused nothing');
});
