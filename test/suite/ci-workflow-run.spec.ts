/**
 * The example workflow's jobs, run as GitHub would run them (their steps read from the YAML, the Action's own
 * script for each `uses: ./`), against servers whose clock runs fast, with one key per plan and no blanket
 * override: a night of staging (days included), production read-only with its traffic, then a commit's run
 * that counts the night's days as evidence. A correct service ends Conforming in every job; a staging that
 * admits a request too many ends Not conforming.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { faultById } from './support/faults.ts';
import { startVariant, type VariantTarget } from './support/variant-target.ts';
import { runJob, type GitHubEnvironment, type JobRun, type StepOutputs } from './support/workflow-runner.ts';

/** The key of each plan at `index` of the demo keys: one key per plan. */
function keysAt(index: number): Record<string, string> {
  return Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan][index]!]));
}

function environments(staging: VariantTarget, production: VariantTarget | undefined): Record<string, GitHubEnvironment> {
  return {
    staging: { vars: { PETSTORE_BASE_URL: staging.baseUrl }, secrets: keysAt(0) },
    'staging-nightly': { vars: { PETSTORE_BASE_URL: staging.baseUrl }, secrets: keysAt(1) },
    production: { vars: { PETSTORE_BASE_URL: production?.baseUrl ?? '', PETSTORE_STAGING_BASE_URL: staging.baseUrl }, secrets: keysAt(0) },
  };
}

/** What `gh run download --pattern 'conformance-*'` leaves: each artifact of the last night in a folder of its name. */
function lastNightlyReports(workspace: string, artifacts: ReadonlyMap<string, string>): StepOutputs {
  let copied = false;
  for (const [name, folder] of artifacts) {
    if (!name.startsWith('conformance-')) continue;
    cpSync(folder, path.join(workspace, 'evidence', name), { recursive: true });
    copied = true;
  }
  mkdirSync(path.join(workspace, 'evidence'), { recursive: true });
  // As the step's own test: a folder is given only when it holds a report (an empty one is refused, exit 2).
  return copied ? { folder: 'evidence' } : {};
}

/** The night's gateway log: a few exchanges of a production client, one per line in the exchange format. */
async function gatewayLog(production: VariantTarget, workspace: string): Promise<void> {
  const lines: string[] = [];
  const key = DEMO_KEYS.pro[2]!;
  for (const [method, url, body] of [['GET', '/pets?limit=5', undefined], ['GET', '/pets?status=sold', undefined], ['POST', '/pets', '{"name":"Rex","categoryId":1}'], ['GET', '/pets', undefined]] as const) {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    const response = await fetch(`${production.baseUrl}${url}`, { method, headers, ...(body ? { body } : {}) });
    lines.push(JSON.stringify({
      time: Date.now() / 1000,
      method,
      url: `/v1${url}`,
      status: response.status,
      requestHeaders: headers,
      ...(body ? { requestBody: body } : {}),
      responseHeaders: Object.fromEntries(response.headers),
      responseBody: await response.text(),
    }));
  }
  writeFileSync(path.join(workspace, 'gateway.ndjson'), `${lines.join('\n')}\n`);
}

function report(run: JobRun, output: string): CertifiedReport {
  return JSON.parse(readFileSync(path.join(run.workspace, output, 'conformance.json'), 'utf8')) as CertifiedReport;
}

function codeOf(run: JobRun): number {
  expect(run.codes).toHaveLength(1);
  return run.codes[0]!.code;
}

function explain(run: JobRun): string {
  return run.codes.map(({ step, code, output }) => `${step}: exit ${code}\n${output.slice(-3_000)}`).join('\n');
}

/** The nightly job, days included, takes about five minutes at this clock on a busy machine. */
const JOB_TIMEOUT_MS = 480_000;
/**
 * A minute window lasts a second: a day of Business (100 windows) takes under two minutes, and a burst of 1,000
 * requests fits in one window even on a busy machine (at the bundled server's quarter second it often does not,
 * and the measurement is left to another report).
 */
const CLOCK_RATE = 60;

test.describe.serial('the example workflow, run job by job', () => {
  test('a correct service: the night, production and the next commit each end Conforming, through evidence alone', async () => {
    test.setTimeout(2.5 * JOB_TIMEOUT_MS);
    const staging = await startVariant({ clockRate: CLOCK_RATE });
    const production = await startVariant({ clockRate: CLOCK_RATE });
    try {
      const artifacts = new Map<string, string>();
      const envs = environments(staging, production);
      const nightly = await runJob('nightly', { environment: envs['staging-nightly']!, artifacts, standIns: {}, env: staging.clockEnv, timeoutMs: JOB_TIMEOUT_MS });
      expect(codeOf(nightly), explain(nightly)).toBe(0);
      const night = report(nightly, 'reports/nightly');
      expect(night.evidence?.parts.filter((part) => part.part === 'day' && part.rule.startsWith('PLAN-')).map((part) => [part.rule, part.result])).toEqual(
        expect.arrayContaining([['PLAN-FREE', 'pass'], ['PLAN-PRO', 'pass'], ['PLAN-BUSINESS', 'pass']]),
      );

      const productionRun = await runJob('production', {
        environment: envs.production!,
        artifacts,
        standIns: { 'gateway-log': (workspace) => gatewayLog(production, workspace) },
        env: production.clockEnv,
        timeoutMs: JOB_TIMEOUT_MS,
      });
      const prod = report(productionRun, 'reports/production');
      expect(codeOf(productionRun), `${prod.verdict.headline}\n${explain(productionRun)}`).toBe(0);
      expect(prod.certificate?.ownVerdict.state, 'read-only alone cannot certify').toBe('incomplete');
      expect(prod.verdict.headline).toMatch(/^Conforming at MUST level/);
      const create = prod.certificate?.rules.find((rule) => rule.id === 'CREATE-1');
      expect(create?.line).toMatch(/checked by the nightly run of \d{4}-\d\d-\d\d, \d+ minutes? old \(staging has production's shape, VER-2\)/);
      expect(prod.certificate?.reports.some((considered) => considered.source === 'judge' && considered.counted)).toBe(true);

      const commit = await runJob('per-commit', {
        environment: envs.staging!,
        artifacts,
        standIns: { 'last-nightly-reports': lastNightlyReports },
        env: staging.clockEnv,
        timeoutMs: JOB_TIMEOUT_MS,
      });
      const certified = report(commit, 'reports/per-commit');
      expect(codeOf(commit), `${certified.verdict.headline}\n${explain(commit)}`).toBe(0);
      expect(certified.target.quotaTests, 'the commit\'s run spends no day').toBe(false);
      expect(certified.certificate?.ownVerdict.state).toBe('incomplete');
      expect(certified.verdict.headline).toMatch(/^Conforming at MUST level/);
      const business = certified.certificate?.rules.find((rule) => rule.id === 'PLAN-BUSINESS');
      // The minute is measured by this run, or by the night's when a busy machine could not fit a burst in a window.
      expect(business?.line).toMatch(/^PLAN-BUSINESS: day checked by the nightly run of \d{4}-\d\d-\d\d, \d+ minutes? old; minute checked by (this run|the nightly run of .*)$/);
      expect(certified.certificate?.reports.find((considered) => considered.baseUrl === production.baseUrl)).toMatchObject({ counted: false, why: `another target, ${production.baseUrl}` });
      expect(commit.summary).toMatch(/^\| `PLAN-BUSINESS` \| day \| checked \| the nightly run of \d{4}-\d\d-\d\d \([^)]+\) \| \d+ (minutes?|hours?) old \|$/m);
      expect(commit.codes[0]!.output).toContain('PLAN-BUSINESS: day checked by the nightly run of');
    } finally {
      await staging.close();
      await production.close();
    }
  });

  test('a staging that admits a request too many in a minute: the commit\'s run ends Not conforming, whatever the evidence', async () => {
    test.setTimeout(JOB_TIMEOUT_MS);
    const staging = await startVariant({ clockRate: CLOCK_RATE, wrapLimiter: [faultById('free-61-per-minute').limiter!] });
    try {
      const envs = environments(staging, undefined);
      const commit = await runJob('per-commit', { environment: envs.staging!, artifacts: new Map(), standIns: { 'last-nightly-reports': lastNightlyReports }, env: staging.clockEnv, timeoutMs: JOB_TIMEOUT_MS });
      const certified = report(commit, 'reports/per-commit');
      expect(codeOf(commit), explain(commit)).toBe(1);
      expect(certified.verdict.headline).toMatch(/^Not conforming: .*PLAN-FREE/);
      expect(certified.certificate?.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toMatch(/minute failed by this run/);
    } finally {
      await staging.close();
    }
  });
});
