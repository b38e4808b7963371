/**
 * A refusal at a gap stays a refusal at a gap on a server whose only fault is a rate-limit header. A store that
 * knows three categories and refuses empty names (its choice: RES-GAP-1, RES-GAP-2) and sends X-RateLimit-Reset in
 * milliseconds, or in the past, fails RL-7 and nothing else: the generated creations and sequences that meet its
 * refusals judge them by their status and Error body, and the ordinary pet each retry creates shows the refusal
 * was the gap's. (Seen on @fastify/rate-limit's Reset with Fastify's schema refusing a category beyond 2^53.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { knownCategoriesOnly, limitedNames } from './support/legitimate-variants.ts';
import { ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';
import type { ExchangeTransform } from '../support/fault-proxy.ts';

/** Rewrites every X-RateLimit-Reset the upstream sends. */
function resetAs(rewrite: (unixSeconds: number) => number): () => ExchangeTransform {
  return () => ({
    response(response) {
      const reset = Number(response.headers['x-ratelimit-reset']);
      return Number.isInteger(reset) ? { ...response, headers: { ...response.headers, 'x-ratelimit-reset': String(rewrite(reset)) } } : response;
    },
  });
}

const CASES = [
  { label: 'reset-in-milliseconds', reset: resetAs((seconds) => seconds * 1000) },
  { label: 'reset-in-the-past', reset: resetAs(() => Math.floor(Date.now() / 1000) - 3_600) },
];

for (const { label, reset } of CASES) {
  test(`${label}, categories and names refused at their gaps: RL-7 fails, CREATE-1 and LIST-7 hold`, async () => {
    test.setTimeout(180_000);
    const target = await startVariant({ transforms: [reset, knownCategoriesOnly(3n), limitedNames], timeScale: 20 });
    try {
      await runSuite({ label, baseUrl: target.baseUrl, titles: [ruleTitle('CREATE-1'), ruleTitle('LIST-7'), ruleTitle('RL-7')], allReporters: true });
    } finally {
      await target.close();
    }
    const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    const row = (id: string) => report.rules.find((candidate) => candidate.id === id)!;
    expect(row('RL-7').verdict).toBe('fail');
    for (const id of ['CREATE-1', 'LIST-7']) expect(row(id).verdict, `${id}: ${row(id).reason ?? ''} ${row(id).failures.map((failure) => failure.text).join('\n')}`).toBe('pass');
    expect(row('RES-GAP-1').observations.map((note) => note.text).join('\n'), 'the refused categories are reported as the service\'s choice').toContain('refused with 400 while the same pet with ordinary values was created');
  });
}
