/**
 * From each implementation's conformance report (or the reason it has none) and its expectations to the
 * matrix: a cell per rule and implementation, the rows where implementations disagree, and whether the run
 * went as the expectations say.
 */
import type { RulesCatalogue } from '../lib/rules.ts';
import type { CertifiedReport } from '../lib/verdicts/certificate.ts';
import type { RuleRow, RunState } from '../lib/verdicts/model.ts';
import { provenanceOf } from '../lib/verdicts/provenance.ts';
import type { ExpectedFailure } from './expectations-file.ts';
import type { CellVerdict, ExpectationOutcome, Matrix, MatrixCell, MatrixImplementation, MatrixRow, MustTally } from './model.ts';

export interface ImplementationRun {
  name: string;
  version?: string;
  /** Where the suite reached it; never a key. */
  target: string;
  /** undefined when it could not be certified; `problem` says why. With the certificate its run made, if any. */
  report?: CertifiedReport;
  problem?: string;
  expectations: ExpectedFailure[];
  /** The expectations file as the implementations file names it. */
  expectationsFile?: string;
}

const LABELS: Record<RunState, string> = { conforming: 'Conforming', 'not-conforming': 'Not conforming', incomplete: 'Not certified' };
/** Verdicts that say a MUST or SHOULD rule was checked and held, or was checked and broken. */
const HELD: ReadonlySet<CellVerdict> = new Set(['pass', 'partly-checked']);
const BROKEN: ReadonlySet<CellVerdict> = new Set(['fail', 'warn']);
const GIST_FALLBACK_LENGTH = 60;
const DETAIL_LENGTH = 400;

export function buildMatrix(runs: readonly ImplementationRun[], catalogue: Readonly<RulesCatalogue>, suiteVersion: string, rulesHash: string, now = new Date()): Matrix {
  const implementations = runs.map(implementationColumn);
  const rows = catalogue.rules.map((rule): MatrixRow => {
    const cells = runs.map((run) => cellOf(run, run.report?.rules.find((row) => row.id === rule.id), rule.id));
    return { id: rule.id, level: rule.level, section: rule.section, rule: rule.rule, ...(rule.silent ? { silent: rule.silent } : {}), cells, disagreement: disagree(rule.level, cells) };
  });
  return {
    format: 'petstore-matrix',
    formatVersion: 1,
    generatedAt: now.toISOString(),
    specVersion: catalogue.specVersion,
    suiteVersion,
    rulesHash,
    sections: [...catalogue.sections],
    implementations,
    rows,
    asExpected: implementations.every((column) => column.state !== undefined && column.expectations.unexpectedFailures.length === 0 && column.expectations.unexpectedPasses.length === 0),
  };
}

function implementationColumn(run: ImplementationRun): MatrixImplementation {
  const report = run.report;
  const base = {
    name: run.name,
    ...(run.version === undefined ? {} : { version: run.version }),
    target: run.target,
    badgeHref: `${folderName(run.name)}/badge.svg`,
    expectations: expectationOutcome(run),
  };
  if (!report) {
    return { ...base, verdictLabel: 'Could not certify', headline: `Could not certify: ${run.problem ?? 'no report'}`, problem: run.problem ?? 'no report' };
  }
  return {
    ...base,
    ...badgeSubject(report),
    verdictLabel: LABELS[report.verdict.state],
    headline: report.verdict.headline,
    startedAt: report.run.startedAt,
    durationMs: report.run.durationMs,
    reportHref: `${run.name}/index.html`,
  };
}

/**
 * An implementation's folder under reports/certify/: its name, which the implementations file keeps to safe
 * characters; an entry rejected for its name still gets a folder for its badge, never outside reports/certify/.
 */
function folderName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'entry';
}

/** What a run's badge says, drawn from its report: the verdict, the MUST tally, and how old its evidence is. */
export function badgeSubject(report: CertifiedReport): Required<Pick<MatrixImplementation, 'state' | 'must'>> & Pick<MatrixImplementation, 'provenance'> {
  const provenance = provenanceOf(report);
  return { state: report.verdict.state, must: mustTally(report.rules), ...(provenance ? { provenance } : {}) };
}

function mustTally(rows: readonly RuleRow[]): MustTally {
  const binding = rows.filter((row) => row.level === 'MUST' && row.applies);
  return {
    held: binding.filter((row) => row.verdict === 'pass').length,
    checked: binding.filter((row) => row.verdict === 'pass' || row.verdict === 'fail' || row.verdict === 'partly-checked').length,
    total: binding.length,
  };
}

/** A failure in the expectations' sense: a rule that failed, or a SHOULD rule that warned. */
function failed(row: RuleRow): boolean {
  return row.verdict === 'fail' || row.verdict === 'warn';
}

function failedTests(row: RuleRow): string[] {
  return row.tests.filter((test) => test.outcome === 'failed').map((test) => test.title);
}

/** Whether the expectations cover this failing rule: by its ID, or every failing test behind it by title. */
function expectedToFail(row: RuleRow, expectations: readonly ExpectedFailure[]): boolean {
  if (expectations.some((item) => item.rule === row.id)) return true;
  const titles = failedTests(row);
  return titles.length > 0 && titles.every((title) => expectations.some((item) => item.test === title));
}

function listed(row: RuleRow, expectations: readonly ExpectedFailure[]): boolean {
  return expectations.some((item) => item.rule === row.id || (item.test !== undefined && row.tests.some((test) => test.cites && test.title === item.test)));
}

function expectationOutcome(run: ImplementationRun): ExpectationOutcome {
  const expectedFailures = run.expectations.map((item) => ({ rule: item.rule ?? item.test ?? '', reason: item.reason, ...(item.link ? { link: item.link } : {}) }));
  const outcome: ExpectationOutcome = { ...(run.expectationsFile ? { file: run.expectationsFile } : {}), expectedFailures, unexpectedFailures: [], unexpectedPasses: [] };
  const rows = run.report?.rules;
  if (!rows) return outcome;
  outcome.unexpectedFailures = rows.filter((row) => failed(row) && !expectedToFail(row, run.expectations)).map((row) => row.id);
  for (const item of run.expectations) {
    if (item.rule !== undefined) {
      const row = rows.find((candidate) => candidate.id === item.rule);
      if (row && (row.verdict === 'pass' || row.verdict === 'partly-checked' || row.verdict === 'observed')) outcome.unexpectedPasses.push(item.rule);
    } else if (item.test !== undefined) {
      const outcomes = rows.flatMap((row) => row.tests.filter((test) => test.title === item.test && test.cites).map((test) => test.outcome));
      if (outcomes.length > 0 && outcomes.every((testOutcome) => testOutcome === 'passed')) outcome.unexpectedPasses.push(item.test);
    }
  }
  return outcome;
}

function cellOf(run: ImplementationRun, row: RuleRow | undefined, ruleId: string): MatrixCell {
  if (!run.report || !row) return { verdict: 'no-report' };
  const cell: MatrixCell = { verdict: row.verdict, href: `${run.name}/index.html#rule-${ruleId}` };
  // A failing rule is expected only when the expectations cover every failing test; a passing one is marked
  // whenever they list it, so its cell can say "now passes".
  if (failed(row) ? expectedToFail(row, run.expectations) : listed(row, run.expectations)) cell.expectedFailure = true;
  const gist = gistOf(row);
  if (gist) cell.gist = gist;
  const detail = [...row.failures, ...row.warnings, ...row.observations].map((note) => note.text).join('\n') || row.reason;
  if (detail) cell.detail = detail.length > DETAIL_LENGTH ? `${detail.slice(0, DETAIL_LENGTH)}…` : detail;
  return cell;
}

/** The tests' own few words, each said once; else the start of the first observation. */
function gistOf(row: RuleRow): string | undefined {
  if (row.level !== 'GAP' || row.verdict !== 'observed') return undefined;
  const gists = [...new Set(row.gists.map((note) => note.text))];
  if (gists.length > 0) return gists.join('; ');
  const first = row.observations[0]?.text;
  if (first === undefined) return undefined;
  return first.length > GIST_FALLBACK_LENGTH ? `${first.slice(0, GIST_FALLBACK_LENGTH)}…` : first;
}

function disagree(level: MatrixRow['level'], cells: readonly MatrixCell[]): boolean {
  if (level === 'GAP') return new Set(cells.flatMap((cell) => (cell.gist === undefined ? [] : [cell.gist]))).size > 1;
  return cells.some((cell) => HELD.has(cell.verdict)) && cells.some((cell) => BROKEN.has(cell.verdict));
}
