/**
 * The conformance report says, rule by rule, what a run showed: checked on a small stand-in suite whose
 * outcomes are known (test/suite/report-sample), live and through merge-reports of sharded blob reports, and
 * rendered in Chromium. The verdict for the run is checked on made-up records.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { catalogue } from '../../lib/rules.ts';
import type { TestRecord } from '../../lib/verdicts/test-record.ts';
import { exitCodeFor } from '../../specs/reporter/exit-code.ts';
import { jobSummary } from '../../specs/reporter/job-summary.ts';
import { buildReport, type ConformanceReport, type RunInfo, type RunMetadata } from '../../lib/verdicts/model.ts';
import { chromiumPath, INSTALL_HINT, launchChromium } from '../support/chromium.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { PLAYWRIGHT_CLI, REPO_ROOT } from '../fixtures/listed-tests.ts';
import { findSecrets } from './support/find-secrets.ts';
import { VARIANTS_OUTPUT } from './support/run-suite.ts';
import { assertMatchesSchema } from '../support/report-schemas.ts';

const SAMPLE_CONFIG = path.join(REPO_ROOT, 'test', 'suite', 'report-sample', 'playwright.config.ts');
const OUT = path.join(VARIANTS_OUTPUT, 'report-sample');
/** A key the sample's evidence and error messages carry on purpose: the report must show it as its variable. */
const SAMPLE_KEY = 'sample-secret-pro-key-5e1f';
const execFileAsync = promisify(execFile);

/** The environment less Playwright's own variables and every PETSTORE_ setting of this run. */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PW_|PLAYWRIGHT_|TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|PETSTORE_)/.test(name)));
}

async function playwright(args: string[], env: Record<string, string>): Promise<void> {
  // The sample fails on purpose, so a non-zero exit is expected; what it writes is checked instead.
  await execFileAsync(process.execPath, [PLAYWRIGHT_CLI, ...args], { cwd: REPO_ROOT, env: { ...cleanEnv(), PETSTORE_API_KEY_PRO: SAMPLE_KEY, ...env } }).catch(() => undefined);
}

function readReport(folder: string): ConformanceReport {
  return assertMatchesSchema('conformance-report', JSON.parse(readFileSync(path.join(folder, 'conformance.json'), 'utf8')) as ConformanceReport);
}

const row = (report: ConformanceReport, id: string) => report.rules.find((rule) => rule.id === id)!;

// The merge and the rendering read what the live run wrote.
test.describe.serial('a run with known outcomes', () => {
  test('the report gives each rule the verdict its tests earned, with evidence and the keys redacted', async () => {
    const folder = path.join(OUT, 'live');
    rmSync(folder, { recursive: true, force: true });
    await playwright(['test', '-c', SAMPLE_CONFIG], { SAMPLE_REPORT_DIR: folder, SAMPLE_RESULTS_DIR: path.join(OUT, 'results') });
    const report = readReport(folder);

    expect(report.rules.map((rule) => rule.id), 'one row per rule of the catalogue, in its order').toEqual(catalogue.rules.map((rule) => rule.id));
    expect(report.verdict.state).toBe('not-conforming');
    expect(report.verdict.failedMust).toEqual(['LIST-2', 'RL-4']);
    expect(row(report, 'LIST-1').verdict).toBe('pass');
    expect(row(report, 'LIST-2').verdict).toBe('fail');
    expect(row(report, 'RL-4').verdict, 'a contract check names RL-4 in another rule’s test').toBe('fail');
    expect(row(report, 'CREATE-1')).toMatchObject({ verdict: 'not-run', reason: expect.stringContaining('RL-4') });
    expect(row(report, 'AUTH-6').verdict).toBe('warn');
    expect(row(report, 'LIST-GAP-3')).toMatchObject({ verdict: 'observed', observations: [{ text: 'newest first' }] });
    expect(row(report, 'CREATE-4')).toMatchObject({ verdict: 'skipped', reason: 'PETSTORE_READ_ONLY=1 leaves out the tests that create data' });
    expect(row(report, 'GET-1'), 'a rule with a test skipped is not a pass').toMatchObject({ verdict: 'partly-checked', skippedTests: [{ text: 'needs PETSTORE_API_KEY_PRO' }] });
    expect(row(report, 'LIST-3')).toMatchObject({ verdict: 'partly-checked', unchecked: [{ text: 'limit=100 with more than 100 animals: the store shows 21' }] });
    expect(report.verdict.partiallySkipped.map((item) => item.rule)).toEqual(['GET-1']);
    expect(row(report, 'ERR-3')).toMatchObject({ verdict: 'not-run', reason: expect.stringContaining('binds clients') });
    expect(report.counts.throttledTests).toBe(1);
    expect(report.generated, 'each generated property: kind, requests, input classes, answers').toEqual([
      expect.objectContaining({ property: 'getPet with a petId that is not an int64', kind: 'outside the contract', requests: 3, classes: { 'petId: letters': 1, 'petId: plus sign': 2 }, answers: { '400 invalid_request': 3 }, outcome: 'passed' }),
    ]);
    expect(report.problems).toEqual([expect.stringContaining('FOO-9')]);
    expect(report).toMatchObject({ target: { url: 'http://127.0.0.1:9/v1', readOnly: true }, specVersion: '1.0.0', suiteVersion: '0.0.0-sample', gitCommit: 'sample' });

    const [evidence] = row(report, 'LIST-2').evidence;
    expect(evidence?.curl).toBe('curl -H "Authorization: Bearer $PETSTORE_API_KEY_PRO" http://127.0.0.1:9/v1/pets');
    expect(JSON.stringify(evidence?.request)).toContain('$PETSTORE_API_KEY_PRO');
    expect(row(report, 'LIST-2').failures[0]?.text, 'the demo key in the message is redacted too').toContain('$PETSTORE_API_KEY_FREE');
    expect(findSecrets([folder], [SAMPLE_KEY, 'demo-free-1']).findings).toEqual([]);
  });

  test('merge-reports of sharded blob reports gives the same verdicts as a live run', async () => {
    const blobs = path.join(OUT, 'blobs');
    rmSync(blobs, { recursive: true, force: true });
    mkdirSync(blobs, { recursive: true });
    for (const shard of [1, 2]) {
      const shardBlobs = path.join(OUT, `blob-${shard}`);
      await playwright(['test', '-c', SAMPLE_CONFIG, `--shard=${shard}/2`, '--reporter=blob'], { PLAYWRIGHT_BLOB_OUTPUT_DIR: shardBlobs, SAMPLE_RESULTS_DIR: path.join(OUT, `results-${shard}`) });
      cpSync(shardBlobs, blobs, { recursive: true });
    }
    const merged = path.join(OUT, 'merged');
    rmSync(merged, { recursive: true, force: true });
    await playwright(['merge-reports', '-c', SAMPLE_CONFIG, blobs], { SAMPLE_REPORT_DIR: merged });

    const live = readReport(path.join(OUT, 'live'));
    const fromShards = readReport(merged);
    const summary = (report: ConformanceReport) => report.rules.map((rule) => ({ id: rule.id, verdict: rule.verdict, tests: rule.tests.map((t) => `${t.title} ${t.outcome}`).sort(), evidence: rule.evidence.length }));
    expect(summary(fromShards)).toEqual(summary(live));
    expect(fromShards.verdict).toEqual(live.verdict);
    expect(fromShards.suiteVersion, 'the metadata travels in the blobs').toBe('0.0.0-sample');
    // The evidence a certificate counts: each part of each rule as a live run gives it, dated by its tests, not by the merge.
    const parts = (report: CertifiedReport) => report.evidence?.parts.map(({ rule, part, result, checked }) => `${rule}:${part} ${result} ${checked}`);
    expect(parts(fromShards)?.length).toBeGreaterThan(0);
    expect(parts(fromShards)).toEqual(parts(live));
    const mergedEvidence = (fromShards as CertifiedReport).evidence;
    expect(mergedEvidence?.target).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', apiVersion: 'v1' });
    const ran = mergedEvidence!.parts.filter((part) => part.checked).map((part) => Date.parse(part.checkedAt));
    expect(Math.max(...ran)).toBeLessThan(Date.parse(fromShards.generatedAt));
  });

  test('the HTML report renders in Chromium, fetches nothing, and leads with the verdict', async ({}, testInfo) => {
    skipWithout(chromiumPath() !== undefined, INSTALL_HINT);
    const page_ = path.join(OUT, 'live', 'index.html');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) fetched.push(request.url());
      });
      await page.goto(`file://${page_}`);
      await expect(page.locator('section.verdict')).toContainText('Not conforming: 2 MUST rules fail (LIST-2, RL-4)');
      await expect(page.locator('table.rules tr[id^="rule-"]')).toHaveCount(catalogue.rules.length);
      await expect(page.locator('figure.chart svg')).toHaveCount(2);
      await expect(page.locator('table.generated tbody tr')).toContainText(['petId: plus sign ×2']);
      await expect(page.locator('#rule-LIST-2 .badge.fail')).toHaveText('fail');
      await expect(page.locator('pre.curl').first()).toContainText('$PETSTORE_API_KEY_PRO');
      expect(fetched).toEqual([]);
      await testInfo.attach('conformance-report.png', { body: await page.screenshot({ fullPage: false }), contentType: 'image/png' });
    } finally {
      await browser.close();
    }
  });
});

const META: RunMetadata = { targetUrl: 'http://127.0.0.1:9/v1', bundled: false, readOnly: false, quotaTests: true, suiteVersion: 'x', specVersion: '1.0.0', gitCommit: 'x', rulesHash: 'x' };
const RUN: RunInfo = { status: 'passed', startedAt: '2026-11-22T00:00:00Z', durationMs: 1, generatedAt: '2026-11-22T00:00:01Z' };

function record(rule: string, outcome: TestRecord['outcome'], extra: Partial<TestRecord> = {}): TestRecord {
  return {
    id: `${rule}-${outcome}`, title: `${rule} test`, fullTitle: `${rule} test`, file: 'x.spec.ts', line: 1, project: 'p', outcome, durationMs: 1, retries: 0,
    rules: [rule], unknownRules: [], titleLevel: undefined, skipReason: outcome === 'skipped' ? 'a reason' : undefined,
    warnings: [], observations: [], gists: [], unchecked: [], throttled: [], generated: [], failures: outcome === 'failed' ? [{ rules: [rule], message: `[${rule}] broke` }] : [], ranThrough: false, judgedWhole: [], evidence: [], ...extra,
  };
}

const serviceRules = catalogue.rules.filter((rule) => rule.subject === 'service');

test('a run is conforming only when every MUST rule of the service was checked and held', () => {
  const allPass = serviceRules.map((rule) => record(rule.id, 'passed'));
  expect(buildReport(allPass, catalogue, META, RUN).verdict).toMatchObject({ state: 'conforming', conforming: true });

  const oneSkipped = allPass.map((item) => (item.rules[0] === 'CREATE-1' ? record('CREATE-1', 'skipped') : item));
  expect(buildReport(oneSkipped, catalogue, META, RUN).verdict).toMatchObject({ state: 'incomplete', conforming: false, skippedMust: [{ rule: 'CREATE-1', reason: 'a reason' }] });

  const oneMissing = allPass.filter((item) => item.rules[0] !== 'VER-2');
  expect(buildReport(oneMissing, catalogue, META, RUN).verdict).toMatchObject({ state: 'incomplete', skippedMust: [{ rule: 'VER-2' }] });

  expect(buildReport(allPass, catalogue, META, { ...RUN, status: 'interrupted' }).verdict.state, 'a run that did not finish certifies nothing').toBe('incomplete');

  const shouldWarns = allPass.map((item) => (item.rules[0] === 'AUTH-6' ? { ...item, warnings: [{ rule: 'AUTH-6', text: 'no challenge' }] } : item));
  expect(buildReport(shouldWarns, catalogue, META, RUN).verdict).toMatchObject({ state: 'conforming', warnedShould: ['AUTH-6'] });

  const mustFails = allPass.map((item) => (item.rules[0] === 'LIST-1' ? record('LIST-1', 'failed') : item));
  expect(buildReport(mustFails, catalogue, META, RUN).verdict).toMatchObject({ state: 'not-conforming', failedMust: ['LIST-1'] });
});

test('a MUST rule held where checked but not checked whole is "partly checked", and the run is not certified, naming the setting', () => {
  const allPass = serviceRules.map((rule) => record(rule.id, 'passed'));
  const dayLeftOut = [...allPass, record('PLAN-BUSINESS', 'skipped', { skipReason: 'estimated 165 s exceeds PETSTORE_QUOTA_BUDGET_SECONDS=60; raise it to run this test' })];
  const report = buildReport(dayLeftOut, catalogue, META, RUN);
  expect(report.rules.find((rule) => rule.id === 'PLAN-BUSINESS')?.verdict).toBe('partly-checked');
  expect(report.verdict).toMatchObject({ state: 'incomplete', partlyCheckedMust: [{ rule: 'PLAN-BUSINESS', setting: 'PETSTORE_QUOTA_BUDGET_SECONDS' }] });
  expect(report.verdict.headline).toContain('1 MUST rule partly checked (PLAN-BUSINESS)');

  const smallStore = allPass.map((item) => (item.rules[0] === 'LIST-4' ? { ...item, unchecked: [{ rule: 'LIST-4', text: 'the store shows 6 animals and a read-only run creates none' }] } : item));
  expect(buildReport(smallStore, catalogue, { ...META, readOnly: true }, RUN).verdict).toMatchObject({
    state: 'incomplete',
    partlyCheckedMust: [{ rule: 'LIST-4', reason: expect.stringContaining('store shows 6'), setting: 'unset PETSTORE_READ_ONLY' }],
  });
});

test('a test failed only by a rate-limit header of some response still checked its own rule; one that failed on another rule may have stopped before it', () => {
  const allPass = serviceRules.map((rule) => record(rule.id, 'passed'));
  const headerFinding = { rules: ['RL-7'], message: '[RL-7] 200 response x-ratelimit-reset 60 is not a Unix time' };
  const ranThrough = allPass.map((item) => (item.rules[0] === 'LIST-1' ? record('LIST-1', 'failed', { failures: [headerFinding], ranThrough: true }) : item));
  const report = buildReport(ranThrough, catalogue, META, RUN);
  expect(report.rules.find((rule) => rule.id === 'LIST-1')?.verdict).toBe('pass');
  expect(report.rules.find((rule) => rule.id === 'RL-7')?.verdict).toBe('fail');

  const stopped = allPass.map((item) => (item.rules[0] === 'LIST-1' ? record('LIST-1', 'failed', { failures: [headerFinding] }) : item));
  expect(buildReport(stopped, catalogue, META, RUN).rules.find((rule) => rule.id === 'LIST-1')).toMatchObject({ verdict: 'not-run', reason: expect.stringContaining('stopped at a violation of RL-7') });

  const oneOfTwoStopped = [...allPass, { ...record('LIST-1', 'failed', { failures: [{ rules: ['SVC-1'], message: '[SVC-1] not JSON' }] }), id: 'second', fullTitle: 'LIST-1 second test' }];
  expect(buildReport(oneOfTwoStopped, catalogue, META, RUN).rules.find((rule) => rule.id === 'LIST-1')).toMatchObject({
    verdict: 'partly-checked',
    reason: expect.stringContaining('LIST-1 second test (stopped at a violation of SVC-1)'),
  });
});

test('a failed test that judged its rules whole keeps their verdicts: a quota counted while a header rule failed in the same test', () => {
  const allPass = serviceRules.map((rule) => record(rule.id, 'passed'));
  const resetFinding = { rules: ['RL-7'], message: '[RL-7] X-RateLimit-Reset 60 is not a plausible Unix time' };
  const withPlan = (judgedWhole: string[]) =>
    allPass.map((item) => (item.rules[0] === 'PLAN-FREE' ? record('PLAN-FREE', 'failed', { rules: ['PLAN-FREE', 'RL-1', 'RL-7'], failures: [resetFinding], judgedWhole }) : item));
  const judged = buildReport(withPlan(['PLAN-FREE', 'RL-1', 'RL-7']), catalogue, META, RUN);
  expect(judged.rules.find((rule) => rule.id === 'PLAN-FREE')?.verdict).toBe('pass');
  expect(judged.rules.find((rule) => rule.id === 'RL-7')?.verdict).toBe('fail');
  expect(buildReport(withPlan([]), catalogue, META, RUN).rules.find((rule) => rule.id === 'PLAN-FREE')).toMatchObject({ verdict: 'not-run', reason: expect.stringContaining('stopped at a violation of RL-7') });
});

test('the exit code says the verdict: 0 conforming, 1 not conforming, 3 not certified (0 when accepted)', () => {
  expect(exitCodeFor('conforming', 'passed', {})).toBe(0);
  expect(exitCodeFor('conforming', 'failed', {}), 'a test that failed outside every MUST rule still fails the job').toBe(1);
  expect(exitCodeFor('not-conforming', 'failed', { PETSTORE_ACCEPT_NOT_CERTIFIED: '1' })).toBe(1);
  expect(exitCodeFor('incomplete', 'passed', {})).toBe(3);
  expect(exitCodeFor('incomplete', 'timedout', {})).toBe(3);
  expect(exitCodeFor('incomplete', 'passed', { PETSTORE_ACCEPT_NOT_CERTIFIED: '1' })).toBe(0);
});

test('a conformance run exits with the verdict\'s code: 3 for a --grep that leaves MUST rules out, 0 when that is accepted', async () => {
  test.setTimeout(60_000);
  const run = (env: Record<string, string>) =>
    execFileAsync(process.execPath, [PLAYWRIGHT_CLI, 'test', '--grep', 'VER-1', '--reporter=./specs/reporter/conformance-reporter.ts'], {
      cwd: REPO_ROOT,
      env: { ...cleanEnv(), PETSTORE_CONFORMANCE_REPORT_DIR: path.join(OUT, 'exit-code'), ...env },
    }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? -1,
    );
  expect(await run({})).toBe(3);
  expect(await run({ PETSTORE_ACCEPT_NOT_CERTIFIED: '1' })).toBe(0);
});

test('PLAN-ENTERPRISE-AGREED counts only in a run that states an agreed Enterprise quota', () => {
  const others = serviceRules.filter((rule) => rule.id !== 'PLAN-ENTERPRISE-AGREED').map((rule) => record(rule.id, 'passed'));
  // Like the real tests, the skipped Enterprise tests also cite RL-1: that leaves nothing of RL-1 unchecked.
  const skipped = [...others, record('PLAN-ENTERPRISE-AGREED', 'skipped', { rules: ['PLAN-ENTERPRISE-AGREED', 'RL-1'] })];
  const unstated = buildReport(skipped, catalogue, META, RUN);
  expect(unstated.verdict.state, 'no agreement: nothing to hold the key to').toBe('conforming');
  expect(unstated.rules.find((rule) => rule.id === 'RL-1')?.verdict).toBe('pass');
  expect(unstated.rules.find((rule) => rule.id === 'PLAN-ENTERPRISE-AGREED')).toMatchObject({ verdict: 'not-run', applies: false, reason: expect.stringContaining('does not apply') });
  const stated = buildReport(skipped, catalogue, { ...META, enterpriseQuota: '120/min, 1200/day' }, RUN);
  expect(stated.verdict).toMatchObject({ state: 'incomplete', skippedMust: [{ rule: 'PLAN-ENTERPRISE-AGREED' }] });
});

test('the job summary states the verdict, lists the failing rules as one-line cells linked to the spec, and nothing when all hold', () => {
  const links = { specUrl: 'https://example.test/spec.md', reportsUrl: 'https://example.test/runs/7' };
  const held = jobSummary(buildReport(serviceRules.map((rule) => record(rule.id, 'passed')), catalogue, META, RUN), links);
  expect(held).toContain('✅ **Conforming at MUST level');
  expect(held).not.toContain('| rule |');
  expect(held).toContain('[the run\'s artifacts](https://example.test/runs/7)');

  const records = serviceRules.map((rule) =>
    rule.id === 'LIST-2' ? record(rule.id, 'failed', { failures: [{ rules: ['LIST-2'], message: '[LIST-2] expected 2 pets | got <b>3</b>\nsecond line' }] }) : record(rule.id, 'passed'),
  );
  const broken = jobSummary(buildReport(records, catalogue, META, RUN), links);
  expect(broken).toContain('❌ **Not conforming: 1 MUST rule fails (LIST-2)');
  expect(broken).toContain('| [`LIST-2`](https://example.test/spec.md#get-pets-operation-name-listpets) | MUST | fail | [LIST-2] expected 2 pets \\| got &lt;b>3&lt;/b> second line |');
  expect(broken.match(/^\| \[`/gm)).toHaveLength(1);
});

test('a test that skipped itself for its own reason after a header violation says so, and a GAP observed beside a failure stays observed', () => {
  const allPass = serviceRules.map((rule) => record(rule.id, 'passed'));
  const resetFinding = { rules: ['RL-7'], message: '[RL-7] X-RateLimit-Reset 2 is not a plausible Unix time' };
  const budget = 'estimated 280 s exceeds PETSTORE_QUOTA_BUDGET_SECONDS=60; raise it to run this test';
  const dayOverBudget = [...allPass, { ...record('PLAN-BUSINESS', 'failed', { failures: [resetFinding], skipReason: budget }), id: 'day', fullTitle: 'PLAN-BUSINESS day' }];
  expect(buildReport(dayOverBudget, catalogue, META, RUN).rules.find((rule) => rule.id === 'PLAN-BUSINESS')).toMatchObject({
    verdict: 'partly-checked',
    reason: expect.stringContaining(`PLAN-BUSINESS day (skipped: ${budget}; after a violation of RL-7)`),
  });

  const observedBesideFailure = allPass.map((item) =>
    item.rules[0] === 'RL-GAP-1' ? record('RL-GAP-1', 'failed', { failures: [resetFinding], observations: [{ rule: 'RL-GAP-1', text: 'two keys are counted apart' }] }) : item,
  );
  expect(buildReport(observedBesideFailure, catalogue, META, RUN).rules.find((rule) => rule.id === 'RL-GAP-1')?.verdict).toBe('observed');
});
