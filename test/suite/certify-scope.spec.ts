/**
 * A declared scope: what a team leaves out is listed as not in scope and the verdict is "Conforming within that
 * scope" (exit 0), while anything else left unchecked still ends Not certified (exit 3). The README's Action
 * snippet, read from the README and run through the Action's script, goes green on a correct server; the
 * command is run as a user runs it. The badge next to the report says what the certificate leaned on: the scope,
 * or how old the earlier report was. The server's clock runs fast; one key per plan.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS, keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { certifiedRun, DAY_MS } from '../support/certified-run.ts';
import { startVariant, type VariantTarget } from './support/variant-target.ts';
import { actionSnippet, runActionStep } from './support/workflow-runner.ts';

const DAYS = ['PLAN-FREE:day', 'PLAN-PRO:day', 'PLAN-BUSINESS:day', 'RL-1:day'];

function certify(args: readonly string[], target: VariantTarget, cwd: string): Promise<{ code: number; output: string }> {
  const kept = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PETSTORE_|PW_|PLAYWRIGHT_|TEST_|GITHUB_|NODE_OPTIONS$|npm_)/.test(name)));
  const keys = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan][0]!]));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'bin', 'petstore-conformance.js'), 'certify', '--base-url', target.baseUrl, ...args], { cwd, env: { ...kept, ...keys, ...target.clockEnv }, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

test.describe.serial('a declared scope', () => {
  let target: VariantTarget;
  let work: string;
  test.beforeAll(async () => {
    target = await startVariant({ clockRate: 60 });
    work = mkdtempSync(path.join(tmpdir(), 'petstore-scope-'));
  });
  test.afterAll(async () => {
    await target?.close();
  });

  test("the README's Action snippet: the days left out, Conforming within that scope, exit 0, the left-out parts listed and never passed", async () => {
    test.setTimeout(300_000);
    const given = actionSnippet();
    expect(given['out-of-scope']?.split(/\s+/)).toEqual(DAYS);
    const secrets = Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), DEMO_KEYS[plan][0]!]));
    const outcome = await runActionStep(
      { ...given, 'base-url': target.baseUrl, output: 'scoped' },
      { vars: {}, secrets },
      work,
      { ...target.clockEnv, GITHUB_STEP_SUMMARY: path.join(work, 'summary.md') },
      280_000,
    );
    const report = JSON.parse(readFileSync(path.join(work, 'scoped', 'conformance.json'), 'utf8')) as CertifiedReport;
    expect(outcome.code, `${report.verdict.headline}\n${outcome.output.slice(-3_000)}`).toBe(0);
    expect(report.verdict.headline).toBe(`Conforming within that scope: every MUST rule holds on this run alone, except what was declared out of scope (${DAYS.join(', ')})`);
    expect(outcome.output).toContain(`Conformance: ${report.verdict.headline}`);
    expect(outcome.output).toContain('PLAN-BUSINESS: day not in scope; minute checked by this run');
    const plans = report.certificate!.rules.filter((rule) => ['PLAN-FREE', 'PLAN-PRO', 'PLAN-BUSINESS'].includes(rule.id));
    expect(plans.map((rule) => rule.verdict), 'never passed').toEqual(['not-in-scope', 'not-in-scope', 'not-in-scope']);
    expect(readFileSync(path.join(work, 'summary.md'), 'utf8')).toContain('Not in scope (declared, not checked, never counted as passed): PLAN-FREE:day, PLAN-PRO:day, PLAN-BUSINESS:day, RL-1:day.');
    expect(readFileSync(path.join(work, 'scoped', 'index.html'), 'utf8')).toContain('day not in scope');
    expect(badgeText(path.join(work, 'scoped'))).toBe('conforming within scope');
  });

  test('what the scope does not name still ends Not certified (exit 3), naming it', async () => {
    test.setTimeout(120_000);
    const outcome = await certify(['--output', 'narrow', '--out-of-scope', 'PLAN-FREE:day', '--', '--grep', 'PLAN-(FREE|PRO) MUST'], target, work);
    const report = JSON.parse(readFileSync(path.join(work, 'narrow', 'conformance.json'), 'utf8')) as CertifiedReport;
    expect(outcome.code, outcome.output.slice(-3_000)).toBe(3);
    expect(report.verdict.headline).toMatch(/^Not certified: no report within 7d checked .*PLAN-PRO:day/);
    expect(report.verdict.headline).not.toContain('PLAN-FREE:day');
    expect(badgeText(path.join(work, 'narrow')), 'no scope or age on a badge that certifies nothing').toMatch(/^not certified \d+\/\d+ MUST$/);
  });

  test("a night's report 4 days old covers what this run did not check: the badge says conforming on evidence up to 4 days old", async () => {
    test.setTimeout(120_000);
    // A night's report of this target, as certify writes it, from just under four days ago.
    const night = certifiedRun(target.baseUrl, new Date(Date.now() - 4 * DAY_MS + 3_600_000), 'passed', 'nightly run');
    mkdirSync(path.join(work, 'night'), { recursive: true });
    writeFileSync(path.join(work, 'night', 'conformance.json'), JSON.stringify(night));
    const outcome = await certify(['--output', 'with-night', '--evidence', 'night', '--', '--grep', 'AUTH-4 MUST'], target, work);
    const report = JSON.parse(readFileSync(path.join(work, 'with-night', 'conformance.json'), 'utf8')) as CertifiedReport;
    expect(outcome.code, `${report.verdict.headline}\n${outcome.output.slice(-3_000)}`).toBe(0);
    expect(report.certificate?.ownVerdict.state, 'one rule alone cannot certify').toBe('incomplete');
    expect(badgeText(path.join(work, 'with-night'))).toBe('conforming · evidence ≤ 4d');
  });
});

/** The right half of the badge certify writes next to its report. */
function badgeText(outputDir: string): string | undefined {
  const svg = readFileSync(path.join(outputDir, 'badge.svg'), 'utf8');
  return [...svg.matchAll(/<text x="[\d.]+" y="14"[^>]*>([^<]*)<\/text>/g)].at(-1)?.[1];
}

test('bad evidence input is one line on stderr and exit 2, before anything runs', async () => {
  test.setTimeout(60_000);
  const work = mkdtempSync(path.join(tmpdir(), 'petstore-bad-evidence-'));
  writeFileSync(path.join(work, 'index.html'), '<html></html>');
  writeFileSync(path.join(work, 'conformance.json'), JSON.stringify({ format: 'petstore-conformance-report', formatVersion: 1 }));
  const cases: Array<[string[], RegExp]> = [
    [['--evidence', 'index.html'], /^petstore-conformance certify: --evidence index\.html: not a report: not JSON$/],
    [['--evidence', 'conformance.json'], /^petstore-conformance certify: --evidence conformance\.json: does not match schemas\/conformance-report\.schema\.json: /],
    [['--max-age', 'a week'], /^petstore-conformance certify: --max-age: "a week" is not an age/],
    [['--out-of-scope', 'PLAN-NOPE:day'], /^petstore-conformance certify: --out-of-scope: "PLAN-NOPE:day" is not a rule ID/],
  ];
  for (const [args, line] of cases) {
    const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [path.join(REPO_ROOT, 'bin', 'petstore-conformance.js'), 'certify', '--base-url', 'http://127.0.0.1:9/v1', '--output', 'out', ...args], { cwd: work }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
    expect(outcome.code, args.join(' ')).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
    expect(existsSync(path.join(work, 'out')), 'nothing ran').toBe(false);
  }
});
