/**
 * The certificate (lib/verdicts/certificate.ts) on reports built by the verdict model from known outcomes: which
 * reports count (same target, within the age), which result of a part stands (a failure unless a later report
 * held it), what a declared scope does, the one line bad evidence gets, and the job summary's table of where
 * the evidence came from.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { ageWords, makeCertificate, type CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { certificateSettingsFromEnv } from '../../lib/verdicts/certificate-settings.ts';
import { ageBound } from '../../lib/verdicts/provenance.ts';
import { renderReport } from '../../specs/reporter/report-html.ts';
import { EvidenceInputError, parseMaxAge, readEvidence, type EvidenceReport } from '../../lib/verdicts/evidence-files.ts';
import { loadEvidence } from '../../harness/load/evidence.ts';
import { jobSummary } from '../../specs/reporter/job-summary.ts';
import { asEvidence, certifiedRecord, certifiedRun as run, DAY_MS as DAY } from '../support/certified-run.ts';
import { schemaProblems } from '../support/report-schemas.ts';

const STAGING = 'https://staging.example.com/v1';
const PRODUCTION = 'https://api.example.com/v1';
const NOW = new Date('2026-11-24T12:00:00Z');
const SEVEN_DAYS = { maxAge: '7d', maxAgeMs: 7 * DAY, outOfScope: [] as string[], now: NOW };

const ago = (days: number): Date => new Date(NOW.getTime() - days * DAY);

test('a commit\'s run that skipped the day is conforming with a night within the age, and says which night and how old', () => {
  const commit = run(STAGING, NOW, 'skipped');
  expect(commit.verdict.state, 'alone it cannot certify').toBe('incomplete');
  const { certificate, verdict } = makeCertificate(commit, [asEvidence(run(STAGING, ago(4), 'passed', 'nightly run'), 'night.json')], SEVEN_DAYS);
  expect(verdict.state).toBe('conforming');
  expect(verdict.headline).toMatch(/^Conforming at MUST level: all \d+ MUST rules hold on this run and the nightly run of 2026-11-20 \(4 days old\)$/);
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
    ['prod.json', false, `another target, ${PRODUCTION}`],
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

test("a part left unchecked only by a declared part's tests is out of scope through it, never passed; anything else left still counts", () => {
  // Pro's and Business's day tests also cite RL-1, as the suite's do; Business's was skipped (its budget).
  const DAY_FILE = 'specs/rate-limits/daily-quota.spec.ts';
  const days = (at: Date, pro: 'passed' | 'skipped', business: 'passed' | 'skipped') => [
    certifiedRecord(DAY_FILE, 'PLAN-PRO', pro, at, ['RL-1']),
    certifiedRecord(DAY_FILE, 'PLAN-BUSINESS', business, at, ['RL-1']),
  ];
  const commit = run(STAGING, NOW, 'passed', 'run', days(NOW, 'passed', 'skipped'));
  expect(commit.evidence!.parts.find((part) => part.rule === 'RL-1' && part.part === 'day')?.leftUncheckedBy).toEqual(['PLAN-BUSINESS']);

  const unscoped = makeCertificate(commit, [], SEVEN_DAYS).verdict;
  expect(unscoped.headline).toBe('Not certified: no report within 7d checked PLAN-BUSINESS:day, RL-1:day');

  const { certificate, verdict } = makeCertificate(commit, [], { ...SEVEN_DAYS, outOfScope: ['PLAN-BUSINESS:day'] });
  expect(verdict.state).toBe('conforming');
  expect(verdict.headline).toBe('Conforming within that scope: every MUST rule holds on this run alone, except what was declared out of scope (PLAN-BUSINESS:day, RL-1:day through PLAN-BUSINESS:day)');
  const rl1 = certificate.rules.find((rule) => rule.id === 'RL-1');
  expect(rl1?.verdict, 'held within the scope, never passed whole').toBe('not-in-scope');
  expect(rl1?.line).toBe('RL-1: all checked by this run; day not in scope through PLAN-BUSINESS:day (only its tests left it unchecked; the rest held by this run)');
  expect(jobSummary({ ...commit, verdict, certificate })).toContain('| `RL-1` | day | not in scope | through PLAN-BUSINESS:day, declared out of scope: only its tests left it unchecked; the rest held by this run | |');
  expect(schemaProblems('conformance-report', { ...commit, verdict, certificate })).toEqual([]);

  const proSkippedToo = run(STAGING, NOW, 'passed', 'run', days(NOW, 'skipped', 'skipped'));
  expect(makeCertificate(proSkippedToo, [], { ...SEVEN_DAYS, outOfScope: ['PLAN-BUSINESS:day'] }).verdict.headline, "Pro's day is in scope").toBe(
    'Not certified: no report within 7d checked PLAN-PRO:day, RL-1:day',
  );

  const wholeNight = asEvidence(run(STAGING, ago(2), 'passed', 'nightly run', days(ago(2), 'passed', 'passed')), 'night.json');
  const withNight = makeCertificate(commit, [wholeNight], { ...SEVEN_DAYS, outOfScope: ['PLAN-BUSINESS:day'] }).certificate;
  expect(withNight.rules.find((rule) => rule.id === 'RL-1')?.line, 'a report that checked it whole holds it').toBe('RL-1: all checked by this run; day checked by the nightly run of 2026-11-22, 2 days old');
});

test('bad evidence input is one line naming the file and what is wrong, a folder holding no report too', () => {
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
  expect(problem('.')).toMatch(/^--evidence \.: no report in this folder \(looked for conformance\.json and summary\.json under it\)/);
  mkdirSync(path.join(folder, 'empty'));
  expect(problem('empty')).toMatch(/^--evidence empty: no report in this folder/);

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

test('the job summary tables, part by part, what leaned on an earlier report or a scope: where from and how old', () => {
  const commit = run(STAGING, NOW, 'skipped');
  const night = asEvidence(run(STAGING, ago(4), 'passed', 'nightly run'), '/home/runner/work/app/evidence/conformance-nightly/conformance.json');
  const production = asEvidence(run(PRODUCTION, ago(1), 'passed', 'production run'), 'prod.json');
  const summary = (report: CertifiedReport, evidence: readonly EvidenceReport[], outOfScope: string[] = []): string[] => {
    const { certificate, verdict } = makeCertificate(report, evidence, { ...SEVEN_DAYS, outOfScope });
    return jobSummary({ ...report, verdict, certificate }).split('\n');
  };
  const table = (lines: readonly string[]): string[] => lines.filter((line) => line.startsWith('| `') || line.startsWith('| rule | part'));

  const borrowed = summary(commit, [night, production]);
  expect(table(borrowed)).toEqual([
    '| rule | part | standing | where from | age |',
    '| `PLAN-FREE` | day | checked | the nightly run of 2026-11-20 (conformance-nightly/conformance.json) | 4 days old |',
    '| `PLAN-FREE` | minute | checked | this run | |',
  ]);
  expect(borrowed).toContain(`- Not counted: prod.json (another target, ${PRODUCTION})`);

  expect(table(summary(commit, [], ['PLAN-FREE:day']))).toEqual([
    '| rule | part | standing | where from | age |',
    '| `PLAN-FREE` | day | not in scope | declared out of scope | |',
    '| `PLAN-FREE` | minute | checked | this run | |',
  ]);

  const alone = summary(run(STAGING, NOW, 'passed'), []);
  expect(table(alone), 'the run alone: nothing to say where from').toEqual([]);
  expect(alone.join('\n')).not.toContain('**Evidence**');
});

test('ages are rounded up everywhere: the words, the badge and the job summary never call evidence fresher than it was (issue 40)', () => {
  const MINUTE = 60_000;
  expect(ageWords(1.93 * MINUTE), 'floored, this said "1 minutes old"').toBe('2 minutes old');
  expect(ageWords(0), 'this said "0 minutes old"').toBe('1 minute old');
  expect(ageWords(61 * MINUTE)).toBe('2 hours old');
  expect(ageWords(25 * 60 * MINUTE)).toBe('2 days old');
  for (const ms of [0, 1.93 * MINUTE, 59.5 * MINUTE, 61 * MINUTE, 23.5 * 60 * MINUTE, 25 * 60 * MINUTE, 4 * DAY]) {
    const [count, unit] = ageWords(ms).split(' ');
    expect(ageBound(ms), `${ms} ms`).toBe(`${count}${unit![0]}`);
  }
  const commit = run(STAGING, NOW, 'skipped');
  const night = asEvidence(run(STAGING, new Date(NOW.getTime() - 1.93 * MINUTE), 'passed', 'nightly run'), 'night.json');
  const { certificate, verdict } = makeCertificate(commit, [night], SEVEN_DAYS);
  expect(certificate.rules.find((rule) => rule.id === 'PLAN-FREE')?.line).toBe('PLAN-FREE: day checked by the nightly run of 2026-11-24, 2 minutes old; minute checked by this run');
  expect(verdict.headline).toMatch(/on this run and the nightly run of 2026-11-24 \(2 minutes old\)$/);
  expect(jobSummary({ ...commit, verdict, certificate })).toContain('| 2 minutes old |');
});

test('the headline names the evidence it used, or this run alone when a scope was all it had (issue 40)', () => {
  const commit = run(STAGING, NOW, 'skipped');
  const scoped = makeCertificate(commit, [], { ...SEVEN_DAYS, outOfScope: ['PLAN-FREE:day'] }).verdict;
  expect(scoped.headline, 'this said "every MUST rule holds on evidence within 7d" with no evidence at all').toBe(
    'Conforming within that scope: every MUST rule holds on this run alone, except what was declared out of scope (PLAN-FREE:day)',
  );
  const whole = makeCertificate(run(STAGING, NOW, 'passed'), [], SEVEN_DAYS).verdict;
  expect(whole.headline).toMatch(/^Conforming at MUST level: all \d+ MUST rules hold on this run alone$/);
  const nights = [1, 2, 3, 4].map((days) => asEvidence(run(STAGING, ago(days), 'passed', 'nightly run'), `night-${days}.json`));
  expect(makeCertificate(commit, nights, SEVEN_DAYS).verdict.headline, 'the report whose part stands is named; the older nights held nothing').toMatch(/on this run and the nightly run of 2026-11-23 \(1 day old\)$/);
});

test("each part's by names its report's target, this target's or its staging's, and conformance.json's schema says so (issue 40)", () => {
  const production = run(PRODUCTION, NOW, 'skipped');
  const night = asEvidence(run(STAGING, ago(0.5), 'passed', 'nightly run'), 'night.json');
  const { certificate, verdict } = makeCertificate(production, [night], { ...SEVEN_DAYS, stagingUrl: STAGING });
  const parts = certificate.rules.find((rule) => rule.id === 'PLAN-FREE')!.parts;
  expect(parts.map((part) => [part.part, part.by?.baseUrl])).toEqual([
    ['day', STAGING],
    ['minute', PRODUCTION],
  ]);
  expect(schemaProblems('conformance-report', { ...production, verdict, certificate })).toEqual([]);
  const schema = JSON.parse(readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as object;
  expect(JSON.stringify(schema)).toContain('"baseUrl":{"type":"string","description":"The target the report that gave this standing checked');
});

test("the HTML report's cards count the certificate's rules and parts, not the run's own (issue 40)", () => {
  const commit = run(STAGING, NOW, 'skipped');
  const { certificate, verdict } = makeCertificate(commit, [asEvidence(run(STAGING, ago(1), 'passed', 'nightly run'), 'night.json')], SEVEN_DAYS);
  expect(commit.counts.rules['partly-checked'] + commit.counts.rules.skipped, 'alone, the run left something unchecked').toBeGreaterThan(0);
  const page = renderReport({ ...commit, verdict, certificate });
  const card = (label: string): number | undefined => {
    const match = new RegExp(`<div class="n[^"]*">(\\d+)</div><div class="l">${label}</div>`).exec(page);
    return match ? Number(match[1]) : undefined;
  };
  expect(card('rules partly-checked \\(certificate\\)')).toBe(0);
  expect(card('rules skipped \\(certificate\\)')).toBe(0);
  expect(card('rules partly-checked'), "the run's own count is not shown as a card").toBeUndefined();
  expect(card('rules pass \\(certificate\\)')).toBe(certificate.rules.filter((rule) => rule.verdict === 'pass').length);
  const parts = certificate.rules.flatMap((rule) => rule.parts);
  expect(card(`parts: ${parts.length} held · 0 failed · 0 unchecked · 0 not in scope`)).toBe(parts.length);
});

test('a scope naming a part no report has is refused before anything runs: PLAN-FREE:week, PLAN-FREE:days (issue 40)', () => {
  const refused = (scope: string): string => {
    try {
      certificateSettingsFromEnv({ PETSTORE_OUT_OF_SCOPE: scope });
      return 'accepted';
    } catch (error) {
      expect(error).toBeInstanceOf(EvidenceInputError);
      return (error as Error).message;
    }
  };
  expect(refused('PLAN-FREE:week')).toMatch(/^PETSTORE_OUT_OF_SCOPE: "PLAN-FREE:week" names no part a report has; a part is one of .*\bday\b.*\bminute\b.* or load:<check>/);
  expect(refused('PLAN-FREE:days')).toMatch(/"PLAN-FREE:days" names no part a report has/);
  expect(refused('PLAN-FREE:')).toMatch(/"PLAN-FREE:" names no part a report has/);
  expect(refused('PLAN-NOPE')).toMatch(/"PLAN-NOPE" is not a rule ID/);
  for (const scope of ['PLAN-FREE', 'PLAN-FREE:day', 'PLAN-BUSINESS:minute', 'RL-6:load:remaining-steps', 'RL-6:traffic']) expect(refused(scope), scope).toBe('accepted');
});
