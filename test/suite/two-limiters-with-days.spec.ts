/**
 * A server with two limiters in a row, a minute's and a day's, each writing the headers, certified Conforming on
 * every rule with the daily quotas on. In the field tier (test/tiers.ts): every plan's day is spent at a fast
 * clock, a minute and a half of both cores, and Business's thousand requests must fit a quarter-second window.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { MinuteAndDayLimiters } from '../support/minute-and-day-limiters.ts';
import { ENTERPRISE_AGREED_IN_TESTS } from './support/faults.ts';
import type { LegitimateVariant } from './support/legitimate-variants.ts';
import { runSuite, VARIANTS_OUTPUT, type SuiteRunResult } from './support/run-suite.ts';
import { agreedEnterpriseEnv, startVariant } from './support/variant-target.ts';
import { judgeVariantRun } from './support/variant-verdicts.ts';

/**
 * The two-limiter server's clock runs this much faster than real time (the suite is told, as for the bundled
 * server): a minute window lasts a quarter of a second, a day six minutes, so every plan's day, Business's hundred
 * windows included, is used up within the quota budget below.
 */
const TWO_LIMITERS_CLOCK_RATE = 240;
const TWO_LIMITERS_QUOTA_BUDGET_SECONDS = 300;
/** A run that certifies every rule skips no test. */
const NO_SKIP = /(?!)/;

const TWO_LIMITERS: readonly LegitimateVariant[] = [
  {
    id: 'minute-and-day-limiters',
    description: "limits with two limiters in a row, a minute's and a day's, each writing the headers (as express-rate-limit runs two windows): admitted responses carry the day's window, a minute's 429 the minute's",
    freedom: 'X-RateLimit-Limit is the limit that applies: its per-minute or its per-day quota (RL-5)',
  },
];

test('legitimate server "two-limiters" (headers of the day window on admitted responses, of the minute window on its 429s) is certified conforming on every rule, daily quotas included', async ({}, testInfo) => {
  test.setTimeout(420_000);
  const target = await startVariant({ limiter: new MinuteAndDayLimiters(), clockRate: TWO_LIMITERS_CLOCK_RATE, enterpriseQuota: ENTERPRISE_AGREED_IN_TESTS });
  let run: SuiteRunResult;
  try {
    run = await runSuite({
      label: 'legitimate-two-limiters',
      baseUrl: target.baseUrl,
      quotaTests: true,
      allReporters: true,
      timeoutMs: 400_000,
      env: { ...target.clockEnv, ...agreedEnterpriseEnv(ENTERPRISE_AGREED_IN_TESTS), PETSTORE_QUOTA_BUDGET_SECONDS: String(TWO_LIMITERS_QUOTA_BUDGET_SECONDS) },
    });
  } finally {
    await target.close();
  }
  await judgeVariantRun('two-limiters', TWO_LIMITERS, run, testInfo, { acceptedExitCodes: [0], expectedSkip: NO_SKIP });
  const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, 'legitimate-two-limiters', 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
  const notPassed = report.rules.filter((row) => row.level === 'MUST' && row.applies && row.subject === 'service' && row.verdict !== 'pass').map((row) => `${row.id}: ${row.verdict} ${row.reason ?? ''}`);
  expect(notPassed, report.verdict.headline).toEqual([]);
});
