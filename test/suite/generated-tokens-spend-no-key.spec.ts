/**
 * The generated AUTH-2 requests send bearer tokens that are no key of the service. A gateway that refuses such
 * requests by address, for an hour, refuses no configured key: the run must not spend or mark spent the key the
 * functional tests use (they once went through that key's watched client, and "Spent before this run" named it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PLAN_IDS } from '../../lib/plans.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { SPENT_KEY } from '../../specs/support/spent-keys.ts';
import { jsonResponse } from './support/exchange-edits.ts';
import { upstreamKeys } from './support/faults.ts';
import { failed, ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const KNOWN = new Set(PLAN_IDS.flatMap((plan) => upstreamKeys()[plan]));

test('bearer tokens that are no key, refused by address for an hour, leave every configured key unspent', async () => {
  test.setTimeout(180_000);
  const target = await startVariant({
    transforms: [
      () => ({
        request(request) {
          const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
          if (token === undefined || KNOWN.has(token)) return request;
          const reset = String(Math.ceil(Date.now() / 1000) + 3_600);
          return jsonResponse(429, { code: 'throttled', message: 'too many requests without a valid key from this address', status: 429 }, {
            'retry-after': '3600',
            'x-ratelimit-limit': '600',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': reset,
          });
        },
      }),
    ],
  });
  try {
    const run = await runSuite({ label: 'generated-tokens-spend-no-key', baseUrl: target.baseUrl, titles: [ruleTitle('AUTH-2', 'generated')], allReporters: true });
    expect(run.tests.map((item) => item.title)).toEqual([expect.stringMatching(/^AUTH-2 MUST generated bearer tokens/)]);
    expect(run.tests.filter(failed).map((item) => item.errors.join('\n'))).toEqual([]);
    expect(run.tests.flatMap((item) => item.annotations).filter((annotation) => annotation.type === SPENT_KEY)).toEqual([]);
    const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, 'generated-tokens-spend-no-key', 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict.notes.join(' '), run.output.slice(-2_000)).not.toMatch(/Spent|Banned/);
  } finally {
    await target.close();
  }
});
