/**
 * The certificate (lib/verdicts/certificate.ts) on reports built by the verdict model from known outcomes: which
 * reports count (same target, within the age), which result of a part stands (a failure unless a later report
 * held it), what a declared scope does, and the one line bad evidence gets.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { makeCertificate, type CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { partsOf } from '../../lib/verdicts/evidence.ts';
import { EvidenceInputError, parseMaxAge, readEvidence, type EvidenceReport } from '../../lib/verdicts/evidence-files.ts';
import { buildReport, type RunMetadata } from '../../lib/verdicts/model.ts';
import { emptyRecord, type TestOutcome, type TestRecord } from '../../lib/verdicts/test-record.ts';
import { loadEvidence } from '../../harness/load/evidence.ts';
import { schemaProblems } from '../support/report-schemas.ts';

const STAGING = 'https://staging.example.com/v1';
const PRODUCTION = 'https://api.example.com/v1';
const NOW = new Date('2026-11-24T12:00:00Z');
const DAY = 86_400_000;
const SEVEN_DAYS = { maxAge: '7d', maxAgeMs: 7 * DAY, outOfScope: [] as string[], now: NOW };

function record(file: string, rule: string, outcome: TestOutcome, at: Date): TestRecord {
  const title = `${rule} MUST a test in ${file}`;
  return {
    ...emptyRecord({ id: `${file}-${rule}`, title, fullTitle: title, file, line: 1, project: 'p', outcome, rules: [rule], unknownRules: [], titleLevel: undefined, ranThrough: false }),
    ...(outcome === 'passed' || outcome === 'failed' ? { startedAt: at.toISOString() } : {}),
    ...(outcome === 'skipped' ? { skipReason: 'set PETSTORE_QUOTA_TESTS=1 to run the tests that use up a daily quota' } : {}),
    ...(outcome === 'failed' ? { failures: [{ rules: [rule], message: `[${rule}] expected no more than 1,000 requests admitted in a day, request 1,001 was admitted` }] } : {}),
  };
}

/** A run of `target` at `at`: every service rule held in one file, PLAN-FREE's minute held, and its day as `day` says. */
function run(target: string, at: Date, day: TestOutcome, label = 'run'): CertifiedReport {
  const records = [
    ...catalogue.rules.filter((rule) => rule.subject === 'service' && rule.id !== 'PLAN-FREE' && !rule.appliesWhen).map((rule) => record('specs/functional/all.spec.ts', rule.id, 'passed', at)),
    record('specs/rate-limits/minute-limits.spec.ts', 'PLAN-FREE', 'passed', at),
    record('specs/rate-limits/daily-quota.spec.ts', 'PLAN-FREE', day, at),
  ];
  const meta: RunMetadata = { targetUrl: target, bundled: false, readOnly: false, quotaTests: day !== 'skipped', suiteVersion: '0.1.0', specVersion: catalogue.specVersion, gitCommit: 'x', rulesHash: 'y' };
  const report = buildReport(records, catalogue, meta, { status: 'passed', startedAt: at.toISOString(), durationMs: 1, generatedAt: at.toISOString() });
  return { ...report, evidence: { source: 'certify', label, target: { baseUrl: target }, startedAt: at.toISOString(), specVersion: report.specVersion, parts: partsOf(records, meta, at.toISOString()) } };
}

const ago = (days: number): Date => new Date(NOW.getTime() - days * DAY);
const asEvidence = (report: CertifiedReport, file: string): EvidenceReport => ({ file, evidence: report.evidence! });

test('a commit\'s run that skipped the day is conforming with a night within the age, and says which night and how old', () => {
  const commit = run(STAGING, NOW, 'skipped');
  expect(commit.verdict.state, 'alone it cannot certify').toBe('incomplete');
  const { certificate, verdict } = makeCertificate(commit, [asEvidence(run(STAGING, ago(4), 'passed', 'nightly run'), 'night.json')], SEVEN_DAYS);
  expect(verdict.state).toBe('conforming');
  expect(verdict.headline).toMatch(/^Conforming at MUST level: all \d+ MUST rules hold on evidence within 7d$/);
  expect(certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toBe('PLAN-FREE: day checked by the nightly run of 2026-11-20, 4 days old; minute checked by this run');
  expect(schemaProblems('conformance-report', { ...commit, verdict, certificate })).toEqual([]);
});

test('a report older than the age, or of another target, is not counted, and the certificate names the part nothing covered', () => {
  const commit = run(STAGING, NOW, 'skipped');
  const { certificate, verdict } = makeCertificate(commit, [asEvidence(run(STAGING, ago(8), 'passed', 'nightly run'), 'old.json'), asEvidence(run(PRODUCTION, ago(1), 'passed', 'production run'), 'prod.json')], SEVEN_DAYS);
  expect(verdict.state).toBe('incomplete');
  expect(verdict.headline).toBe('Not certified: no report within 7d checked PLAN-FREE:day');
  expect(certificate.reports.map(({ file, counted, why }) => [file, counted, why])).toEqual([
    ['old.json', false, 'older than 7d'],
    ['prod.json', false, `another target (${PRODUCTION})`],
  ]);
  expect(certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toMatch(/^PLAN-FREE: day checked by no report within 7d \(set PETSTORE_QUOTA_TESTS=1/);
});

test('a failure within the age fails unless a later report of the same part held; an earlier pass does not hide it', () => {
  const commit = run(STAGING, NOW, 'skipped');
  const failedNight = asEvidence(run(STAGING, ago(2), 'failed', 'nightly run'), 'failed.json');
  const earlierPass = asEvidence(run(STAGING, ago(3), 'passed', 'nightly run'), 'earlier.json');
  const laterPass = asEvidence(run(STAGING, ago(1), 'passed', 'nightly run'), 'later.json');

  const failing = makeCertificate(commit, [earlierPass, failedNight], SEVEN_DAYS);
  expect(failing.verdict.state).toBe('not-conforming');
  expect(failing.verdict.failedMust).toEqual(['PLAN-FREE']);
  expect(failing.certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toMatch(/^PLAN-FREE: day failed by the nightly run of 2026-11-22, 2 days old/);

  expect(makeCertificate(commit, [earlierPass, failedNight, laterPass], SEVEN_DAYS).verdict.state).toBe('conforming');
});

test('staging counts for production only when declared its staging (VER-2), and only for what production did not check', () => {
  const production = run(PRODUCTION, NOW, 'skipped');
  const night = asEvidence(run(STAGING, ago(0.5), 'passed', 'nightly run'), 'night.json');
  expect(makeCertificate(production, [night], SEVEN_DAYS).verdict.state).toBe('incomplete');
  const { certificate, verdict } = makeCertificate(production, [night], { ...SEVEN_DAYS, stagingUrl: STAGING });
  expect(verdict.state).toBe('conforming');
  expect(certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toBe(
    "PLAN-FREE: day checked by the nightly run of 2026-11-24, 12 hours old (staging has production's shape, VER-2); minute checked by this run",
  );
});

test('a declared scope is reported as not in scope, never as passed: Conforming within that scope; a failure still fails', () => {
  const commit = run(STAGING, NOW, 'skipped');
  const { certificate, verdict } = makeCertificate(commit, [], { ...SEVEN_DAYS, outOfScope: ['PLAN-FREE:day'] });
  expect(verdict.state).toBe('conforming');
  expect(verdict.headline).toMatch(/^Conforming within that scope: .*\(PLAN-FREE:day\)$/);
  expect(verdict.notes).toContain('Not in scope (declared, not checked, never counted as passed): PLAN-FREE:day.');
  const free = certificate.rules.find((rule) => rule.id === 'PLAN-FREE');
  expect(free?.verdict).toBe('not-in-scope');
  expect(free?.line).toBe('PLAN-FREE: day not in scope; minute checked by this run');

  const failedNight = asEvidence(run(STAGING, ago(1), 'failed', 'nightly run'), 'failed.json');
  expect(makeCertificate(commit, [failedNight], { ...SEVEN_DAYS, outOfScope: ['PLAN-FREE'] }).verdict.state).toBe('not-conforming');

  const typo = makeCertificate(commit, [], { ...SEVEN_DAYS, outOfScope: ['PLAN-FREE:daily'] }).verdict;
  expect(typo.state, 'a part no report has leaves nothing out').toBe('incomplete');
  expect(typo.notes).toContain('Declared out of scope, but no report lists such a part: PLAN-FREE:daily.');
});

test('bad evidence input is one line naming the file and what is wrong; a folder without reports is only a note', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'petstore-evidence-'));
  const write = (name: string, text: string): string => {
    writeFileSync(path.join(folder, name), text);
    return name;
  };
  const problem = (name: string): string => {
    try {
      readEvidence([name], folder);
      return 'accepted';
    } catch (error) {
      expect(error).toBeInstanceOf(EvidenceInputError);
      return (error as Error).message;
    }
  };
  expect(problem(write('page.html', '<html>'))).toBe('--evidence page.html: not a report: not JSON');
  expect(problem(write('other.json', '{"format":"something-else"}'))).toMatch(/^--evidence other\.json: not a report of this package/);
  const { evidence: _evidence, ...old } = run(STAGING, NOW, 'passed');
  expect(problem(write('old.json', JSON.stringify(old)))).toMatch(/^--evidence old\.json: written before reports carried their evidence/);
  expect(problem(write('broken.json', JSON.stringify({ ...run(STAGING, NOW, 'passed'), verdict: { state: 'fine' } })))).toMatch(/^--evidence broken\.json: does not match schemas\/conformance-report\.schema\.json: \/verdict/);
  expect(problem('missing.json')).toBe('--evidence missing.json: no such file or folder');
  expect(readEvidence(['.'], path.join(folder, '..', path.basename(folder))).reports).toEqual([]);

  expect(parseMaxAge('7d')).toBe(7 * DAY);
  expect(parseMaxAge('36h')).toBe(36 * 3_600_000);
  expect(() => parseMaxAge('a week')).toThrow('--max-age: "a week" is not an age; expected a number and a unit, e.g. 7d, 36h, 90m, 2w');
});

test("a load run that used up a key's day counts for that plan's day part, and its failures count wherever they are", () => {
  const commit = run(STAGING, NOW, 'skipped');
  const verdict = (check: 'daily-quota' | 'remaining-steps', status: 'pass' | 'fail', rules: string[]) => ({ check, status, rules, title: check, detail: `${check} ${status}`, evidence: [] });
  const held = loadEvidence([verdict('daily-quota', 'pass', ['PLAN-FREE'])], STAGING, ago(1).toISOString(), catalogue.specVersion, 'load run');
  expect(held.parts).toEqual([{ rule: 'PLAN-FREE', part: 'day', result: 'pass', checked: true, checkedAt: ago(1).toISOString() }]);
  const { certificate, verdict: certified } = makeCertificate(commit, [{ file: 'summary.json', evidence: held }], SEVEN_DAYS);
  expect(certified.state).toBe('conforming');
  expect(certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toBe('PLAN-FREE: day checked by the load run of 2026-11-23, 1 day old; minute checked by this run');

  const broke = loadEvidence([verdict('remaining-steps', 'fail', ['RL-6'])], STAGING, ago(1).toISOString(), catalogue.specVersion, 'load run');
  const failing = makeCertificate(commit, [{ file: 'summary.json', evidence: held }, { file: 'broke.json', evidence: broke }], SEVEN_DAYS);
  expect(failing.verdict.failedMust).toEqual(['RL-6']);
  expect(failing.certificate.rules.find((rule) => rule.id === 'RL-6')?.line).toMatch(/load:remaining-steps failed by the load run of 2026-11-23, 1 day old/);
});
