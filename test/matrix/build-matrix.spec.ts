import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { buildMatrix, type ImplementationRun } from '../../matrix/build-matrix.ts';
import { renderMatrix } from '../../matrix/render-html.ts';
import { summaryLines } from '../../matrix/summary.ts';
import { makeCertificate } from '../../lib/verdicts/certificate.ts';
import { asEvidence, certifiedRun, DAY_MS } from '../support/certified-run.ts';
import { schemaProblems } from '../support/report-schemas.ts';
import { conformanceReport } from './support/conformance-reports.ts';

/** An implementation's run; with expectations, as read from its expectations file. */
function run(name: string, report: ImplementationRun['report'], expectations?: ImplementationRun['expectations']): ImplementationRun {
  return {
    name,
    target: `http://127.0.0.1:9/${name}`,
    ...(report ? { report } : { problem: 'the start command printed no base URL within 2 s' }),
    expectations: expectations ?? [],
    ...(expectations ? { expectationsFile: `${name}.expectations.yaml` } : {}),
  };
}

const matrixOf = (runs: ImplementationRun[]) => buildMatrix(runs, catalogue, '0.1.0', 'hash', new Date('2026-11-23T12:00:00Z'));
const rowOf = (matrix: ReturnType<typeof matrixOf>, id: string) => matrix.rows.find((row) => row.id === id)!;

test('one row per rule and a cell per implementation, linked to the evidence in its own report', () => {
  const matrix = matrixOf([run('a', conformanceReport()), run('b', conformanceReport())]);
  expect(matrix.rows.map((row) => row.id)).toEqual(catalogue.rules.map((rule) => rule.id));
  expect(matrix.sections).toEqual(catalogue.sections);
  expect(rowOf(matrix, 'LIST-1').cells).toEqual([
    expect.objectContaining({ verdict: 'pass', href: 'a/index.html#rule-LIST-1' }),
    expect.objectContaining({ verdict: 'pass', href: 'b/index.html#rule-LIST-1' }),
  ]);
  expect(matrix.implementations[0]).toMatchObject({ name: 'a', state: 'conforming', verdictLabel: 'Conforming', reportHref: 'a/index.html', badgeHref: 'a/badge.svg', durationMs: 42_000 });
  expect(matrix.rows.some((row) => row.disagreement)).toBe(false);
  expect(matrix.asExpected).toBe(true);
});

test('a MUST rule one implementation breaks is a disagreement; a GAP rule where they behave differently is one too', () => {
  const matrix = matrixOf([
    run('a', conformanceReport({ 'RL-GAP-2': { gist: 'fixed windows; Retry-After as delta-seconds' } })),
    run('b', conformanceReport({ 'LIST-1': { outcome: 'fail' }, 'RL-GAP-2': { gist: 'sliding windows; Retry-After as HTTP-date' } })),
  ]);
  expect(rowOf(matrix, 'LIST-1')).toMatchObject({ disagreement: true, cells: [{ verdict: 'pass' }, { verdict: 'fail', detail: expect.stringContaining('[LIST-1] broke') }] });
  expect(rowOf(matrix, 'RL-GAP-2')).toMatchObject({
    disagreement: true,
    cells: [{ verdict: 'observed', gist: 'fixed windows; Retry-After as delta-seconds' }, { verdict: 'observed', gist: 'sliding windows; Retry-After as HTTP-date' }],
  });
  expect(rowOf(matrix, 'LIST-GAP-3').disagreement).toBe(false);
  // Every MUST rule binds but PLAN-ENTERPRISE-AGREED (no Enterprise quota agreed for these runs).
  const binding = catalogue.rules.filter((rule) => rule.level === 'MUST' && !rule.appliesWhen).length;
  expect(matrix.implementations[1]).toMatchObject({ state: 'not-conforming', verdictLabel: 'Not conforming', must: { held: binding - 1, checked: binding, total: binding } });
  // b's failure is nobody's expectation: a regression.
  expect(matrix.implementations[1]!.expectations.unexpectedFailures).toEqual(['LIST-1']);
  expect(matrix.asExpected).toBe(false);
});

test('without an expectations file a failure is no regression: it is named as a failure of an implementation with no expectations file', () => {
  const report = conformanceReport({ 'RL-7': { outcome: 'fail' } });
  const matrix = matrixOf([run('bare', report)]);
  expect(matrix.asExpected).toBe(false);
  const summary = summaryLines(matrix, '/tmp/reports/certify').join('\n');
  expect(summary).toContain('bare: failures (no expectations file): RL-7');
  expect(summary).not.toContain('regression');
  const page = renderMatrix(matrix);
  expect(page).toContain('Not as expected: 0 regressions, 1 failure (no expectations file)');
  expect(page).toContain('id="without-expectations"');
  expect(page).not.toContain('(regression)');
  expect(page).toContain('<span class="expectation">(no expectations file)</span>');
});

test('a failure the expectations list is expected; a failure they do not list is a regression; a listed rule that passes must be removed', () => {
  const report = conformanceReport({ 'LIST-1': { outcome: 'fail' }, 'RL-7': { outcome: 'fail' }, 'DEP-3': { outcome: 'warn' } });
  const expected = matrixOf([run('x', report, [{ rule: 'LIST-1', reason: 'filters after paging' }, { rule: 'DEP-3', reason: 'no Sunset header' }, { rule: 'RL-7', reason: 'Reset as seconds' }])]);
  expect(expected.asExpected).toBe(true);
  expect(rowOf(expected, 'LIST-1').cells[0]).toMatchObject({ verdict: 'fail', expectedFailure: true });
  expect(expected.implementations[0]!.expectations).toMatchObject({ unexpectedFailures: [], unexpectedPasses: [] });

  const regression = matrixOf([run('x', report, [{ rule: 'LIST-1', reason: 'filters after paging' }, { rule: 'DEP-3', reason: 'no Sunset header' }])]);
  expect(regression.asExpected).toBe(false);
  expect(regression.implementations[0]!.expectations.unexpectedFailures).toEqual(['RL-7']);
  expect(summaryLines(regression, '/tmp/reports/certify').join('\n')).toContain('x: unexpected failure (regression): RL-7');

  const stale = matrixOf([run('x', report, [{ rule: 'LIST-1', reason: 'r' }, { rule: 'DEP-3', reason: 'r' }, { rule: 'RL-7', reason: 'r' }, { rule: 'AUTH-1', reason: 'fixed since' }])]);
  expect(stale.asExpected).toBe(false);
  expect(stale.implementations[0]!.expectations.unexpectedPasses).toEqual(['AUTH-1']);
  expect(rowOf(stale, 'AUTH-1').cells[0], 'the cell of a listed rule that passes is marked, so the page can say "now passes"').toMatchObject({ verdict: 'pass', expectedFailure: true });
  expect(rowOf(stale, 'AUTH-2').cells[0]!.expectedFailure).toBeUndefined();
  expect(summaryLines(stale, '/tmp/reports/certify').join('\n')).toContain('x: now passes: remove it from the expectations: AUTH-1');
});

test('a test title in the expectations covers a rule whose only failing test it is', () => {
  const report = conformanceReport({ 'LIST-1': { outcome: 'fail', title: 'LIST-1 MUST only animals with that status' } });
  const matrix = matrixOf([run('x', report, [{ test: 'LIST-1 MUST only animals with that status', reason: 'known' }])]);
  expect(matrix.asExpected).toBe(true);
  const passing = matrixOf([run('x', conformanceReport({ 'LIST-1': { title: 'LIST-1 MUST only animals with that status' } }), [{ test: 'LIST-1 MUST only animals with that status', reason: 'known' }])]);
  expect(passing.implementations[0]!.expectations.unexpectedPasses).toEqual(['LIST-1 MUST only animals with that status']);
});

test('a rule the run did not check is neither an expected failure nor an unexpected pass', () => {
  const matrix = matrixOf([run('x', conformanceReport({ 'LIST-1': { outcome: 'skip' } }), [{ rule: 'LIST-1', reason: 'known' }])]);
  expect(matrix.implementations[0]!.expectations).toMatchObject({ unexpectedFailures: [], unexpectedPasses: [] });
});

test('an implementation that could not be certified has a no-report column, says why, and makes the run not as expected', () => {
  const matrix = matrixOf([run('a', conformanceReport()), run('down', undefined)]);
  expect(matrix.implementations[1]).toMatchObject({ name: 'down', verdictLabel: 'Could not certify', problem: 'the start command printed no base URL within 2 s', badgeHref: 'down/badge.svg' });
  expect(matrix.implementations[1]!.state).toBeUndefined();
  expect(matrix.rows.every((row) => row.cells[1]!.verdict === 'no-report' && !row.disagreement)).toBe(true);
  expect(matrix.asExpected).toBe(false);
  expect(summaryLines(matrix, '/tmp/reports/certify').join('\n')).toContain('down: could not certify: the start command printed no base URL within 2 s');
});

test('an entry rejected for its name still gets a badge folder inside reports/certify', () => {
  const matrix = matrixOf([run('../../etc x', undefined)]);
  expect(matrix.implementations[0]!.badgeHref).toBe('etc-x/badge.svg');
});

test("a run that made a certificate carries what it leaned on into matrix.json, for its badge, and the matrix still matches its schema", () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const target = 'https://staging.example.com/v1';
  const commit = certifiedRun(target, now, 'skipped');
  const night = asEvidence(certifiedRun(target, new Date(now.getTime() - 4 * DAY_MS), 'passed', 'nightly run'), 'night.json');
  const { certificate, verdict } = makeCertificate(commit, [night], { now, maxAge: '7d', maxAgeMs: 7 * DAY_MS, outOfScope: [] });
  const matrix = matrixOf([run('staging', { ...commit, verdict, certificate }), run('plain', conformanceReport())]);
  expect(matrix.implementations.map((column) => column.provenance)).toEqual([{ oldestEvidenceMs: 4 * DAY_MS, scoped: false }, undefined]);
  expect(schemaProblems('matrix', { ...JSON.parse(JSON.stringify(matrix)), rulesHash: 'a'.repeat(64) })).toEqual([]);
});
