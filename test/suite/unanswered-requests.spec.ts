/**
 * RESP-3, a request that gets no answer: a server that never answers every 7th list request, or resets the
 * connection of every 9th, fails RESP-3 with the unanswered exchange as evidence, and every other rule the run
 * judges keeps its verdict (the request is sent again and the test goes on with the answer); a server as slow as
 * the bounded wait allows passes. Before RESP-3 such servers ended "Not certified" with 11 and 17 MUST rules
 * unchecked and nothing failed. The bounded wait is shortened for these runs (PETSTORE_ANSWER_TIMEOUT_SECONDS).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { RESET_CONNECTION, type ExchangeTransform, type ProxyRequest } from '../support/fault-proxy.ts';
import { everyNth } from './support/exchange-edits.ts';
import { ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const ANSWER_TIMEOUT_SECONDS = 3;
/** Slower than any answer of the reference server by far, and well within the bounded wait. */
const SLOW_ANSWER_MS = 1_500;

/** RESP-3's own test, and functional and generated tests of rules judged on list answers. */
const TITLES = [ruleTitle('RESP-3'), ruleTitle('LIST-1'), ruleTitle('LIST-2'), ruleTitle('LIST-3', 'with limit='), ruleTitle('LIST-3', 'generated valid list queries')];
const JUDGED_ON_LISTS = ['LIST-1', 'LIST-2', 'LIST-3'];

const never = (): Promise<ProxyRequest> => new Promise(() => undefined);
const slowly = (request: ProxyRequest): Promise<ProxyRequest> => new Promise((resolve) => setTimeout(() => resolve(request), SLOW_ANSWER_MS));

async function certify(label: string, transform: () => ExchangeTransform): Promise<ConformanceReport> {
  const target = await startVariant({ transforms: [transform], seedPets: 300 });
  try {
    const run = await runSuite({ label, baseUrl: target.baseUrl, titles: TITLES, allReporters: true, workers: 1, env: { PETSTORE_ANSWER_TIMEOUT_SECONDS: String(ANSWER_TIMEOUT_SECONDS) } });
    expect(run.globalErrors, run.output.slice(-2_000)).toEqual([]);
    const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    return report;
  } finally {
    await target.close();
  }
}

function verdictOf(report: ConformanceReport, rule: string): string {
  return report.rules.find((row) => row.id === rule)?.verdict ?? 'absent';
}

function expectDropsCaught(report: ConformanceReport, how: RegExp): void {
  const resp3 = report.rules.find((row) => row.id === 'RESP-3');
  expect(resp3?.verdict, JSON.stringify(resp3?.failures)).toBe('fail');
  expect(resp3?.failures.map((failure) => failure.text).join('\n')).toMatch(how);
  expect(resp3?.evidence.some((evidence) => (evidence.response as { status?: number } | undefined)?.status === 0), 'the unanswered exchange is the evidence').toBe(true);
  for (const rule of JUDGED_ON_LISTS) expect(verdictOf(report, rule), `${rule} stays judged on the answered requests`).toBe('pass');
  expect(report.verdict.failedMust).toEqual(['RESP-3']);
}

test.describe.configure({ mode: 'parallel' });

test('a server that never answers every 7th list request fails RESP-3, and the rules judged on lists stay judged', async () => {
  test.setTimeout(240_000);
  const report = await certify('never-answers-every-7th-list', everyNth('listPets', 7, never));
  expectDropsCaught(report, /got none \(no answer in time\)/);
});

test('a server that resets the connection of every 9th list request fails RESP-3, and the rules judged on lists stay judged', async () => {
  test.setTimeout(240_000);
  const report = await certify('resets-every-9th-list', everyNth('listPets', 9, () => RESET_CONNECTION));
  expectDropsCaught(report, /got none \(connection closed\)/);
});

test('a server that answers every 7th list request slowly, within the bounded wait, passes RESP-3', async () => {
  test.setTimeout(240_000);
  const report = await certify('slow-every-7th-list', everyNth('listPets', 7, slowly));
  expect(verdictOf(report, 'RESP-3'), JSON.stringify(report.rules.find((row) => row.id === 'RESP-3')?.failures)).toBe('pass');
  for (const rule of JUDGED_ON_LISTS) expect(verdictOf(report, rule)).toBe('pass');
  expect(report.verdict.failedMust).toEqual([]);
});
