/**
 * The matrix itself: one column per implementation, one row per rule grouped by section. A GAP row shows
 * what each implementation does, so the places where they part ways where the spec is silent stand side by
 * side. Rows where implementations disagree are marked, and a checkbox keeps only those, with CSS alone.
 */
import { formatSeconds } from '../lib/charts.ts';
import { html, safeHref, type Html } from '../lib/html.ts';
import { utcMinute } from '../lib/utc-minute.ts';
import { levelBadge } from '../lib/verdicts/level-badge.ts';
import { VERDICT_COLOURS } from '../lib/verdicts/verdict-chart.ts';
import type { CellVerdict, Matrix, MatrixCell, MatrixImplementation, MatrixRow } from './model.ts';
import { isRegression, WITHOUT_EXPECTATIONS } from './regressions.ts';

const CELL_LABELS: Record<CellVerdict, string> = {
  pass: 'pass', fail: 'fail', warn: 'warn', 'partly-checked': 'partly checked', observed: 'observed', skipped: 'skipped', 'not-run': 'not run', 'no-report': 'no report',
};
const CELL_COLOURS: Record<CellVerdict, string> = { ...VERDICT_COLOURS, 'no-report': '#6e7781' };
const STATE_CLASS = { conforming: 'pass', 'not-conforming': 'fail', incomplete: 'warn' } as const;
const FILTER_ID = 'only-disagreements';

export function matrixTable(matrix: Matrix): Html {
  const disagreements = matrix.rows.filter((row) => row.disagreement).length;
  const columns = matrix.implementations.length + 1;
  return html`<p class="filter"><input type="checkbox" id="${FILTER_ID}"> <label for="${FILTER_ID}">Show only the ${disagreements} ${disagreements === 1 ? 'rule' : 'rules'} where implementations disagree</label></p>
<div class="table-wrap"><table class="matrix">
<thead><tr><th scope="col" class="rule-head">Rule</th>${matrix.implementations.map(columnHead)}</tr></thead>
${matrix.sections.map(
  (section) => html`<tbody><tr class="section-row"><th colspan="${columns}" scope="colgroup">${section}</th></tr>
${matrix.rows.filter((row) => row.section === section).map((row) => ruleRow(row, matrix.implementations))}</tbody>`,
)}
</table></div>`;
}

function columnHead(implementation: MatrixImplementation): Html {
  const { must } = implementation;
  const report = implementation.reportHref === undefined ? undefined : safeHref(implementation.reportHref);
  const run = [implementation.startedAt && utcMinute(implementation.startedAt), implementation.durationMs !== undefined && formatSeconds(implementation.durationMs / 1000)].filter(Boolean).join(' · ');
  return html`<th scope="col" class="impl">
<div class="impl-name">${implementation.name}</div>${implementation.version ? html`<div class="muted small">${implementation.version}</div>` : ''}
<span class="badge ${implementation.state ? STATE_CLASS[implementation.state] : 'muted'}" title="${implementation.problem ?? implementation.headline}">${implementation.verdictLabel}</span>
${must ? html`<div class="small" title="MUST rules that held / were checked, of those that bind it">MUST ${must.held}/${must.checked} of ${must.total}</div>` : ''}
${run ? html`<div class="muted small">${run}</div>` : ''}${report ? html`<div class="small"><a href="${report}">report</a></div>` : ''}
</th>`;
}

function ruleRow(row: MatrixRow, implementations: readonly MatrixImplementation[]): Html {
  return html`<tr id="rule-${row.id}" class="rule-row${row.disagreement ? ' disagreement' : ''}">
<td class="rule"><strong>${row.id}</strong> ${levelBadge(row.level)}${row.disagreement ? html` <span class="badge differs">differs</span>` : ''}<div class="small">${row.rule}</div>${row.silent ? html`<div class="muted small">Silent: ${row.silent}</div>` : ''}</td>
${row.cells.map((cell, index) => matrixCell(row, cell, implementations[index]))}
</tr>`;
}

function matrixCell(row: MatrixRow, cell: MatrixCell, implementation: MatrixImplementation | undefined): Html {
  const label = CELL_LABELS[cell.verdict];
  const expectation = expectationMark(row.id, cell, implementation);
  const verdict = row.level === 'GAP' && cell.gist !== undefined
    ? html`<span class="gist">${cell.gist}</span>${cell.verdict === 'observed' ? '' : html` <span class="verdict-label">(${label})</span>`}`
    : html`<span class="verdict-label">${label}</span>`;
  const content = html`${verdict}${expectation ? html` <span class="expectation">(${expectation.note})</span>` : ''}`;
  const href = cell.href === undefined ? undefined : safeHref(cell.href);
  const title = [cell.detail, cell.expectedFailure ? expectedReason(row.id, implementation) : undefined].filter(Boolean).join('\n\n');
  return html`<td class="cell v-${cell.verdict}${expectation ? ` ${expectation.tone}` : ''}"${title ? html` title="${title}"` : ''}>${href ? html`<a href="${href}">${content}</a>` : content}</td>`;
}

/**
 * How a cell stands against the implementation's expectations: a listed failure that failed is expected;
 * one that passed is news (the expectations file should lose it); a failure nobody listed is a regression, or,
 * for an implementation without an expectations file, a failure of one (regressions.ts).
 */
function expectationMark(rule: string, cell: MatrixCell, implementation: MatrixImplementation | undefined): { note: string; tone: string } | undefined {
  if (cell.expectedFailure) {
    if (cell.verdict === 'fail' || cell.verdict === 'warn') return { note: 'expected', tone: 'expected' };
    return cell.verdict === 'pass' ? { note: 'now passes', tone: 'expected now-passes' } : { note: 'expected to fail', tone: 'expected' };
  }
  if (!implementation?.expectations.unexpectedFailures.includes(rule)) return undefined;
  return isRegression(implementation, rule) ? { note: 'regression', tone: 'regression' } : { note: WITHOUT_EXPECTATIONS, tone: 'unlisted' };
}

function expectedReason(rule: string, implementation: MatrixImplementation | undefined): string {
  const entry = implementation?.expectations.expectedFailures.find((failure) => failure.rule === rule);
  return `Listed as an expected failure${entry ? `: ${entry.reason}` : ''}`;
}

const cellColours = (Object.entries(CELL_COLOURS) as Array<[CellVerdict, string]>)
  .map(([verdict, colour]) => `td.cell.v-${verdict} { box-shadow: inset 3px 0 ${colour}; background: color-mix(in srgb, ${colour} 12%, #fff); } td.cell.v-${verdict} .verdict-label { color: ${colour}; }`)
  .join('\n');

export const MATRIX_TABLE_CSS = `
.filter { margin: 8px 0; font-weight: 600; } .filter input { width: 16px; height: 16px; vertical-align: -3px; }
.table-wrap { overflow-x: auto; }
table.matrix th.rule-head { min-width: 260px; } table.matrix th.impl { min-width: 130px; font-weight: 400; } .impl-name { font-weight: 600; }
table.matrix tr.section-row th { background: #fff; border-bottom: 2px solid var(--line); padding-top: 18px; font-size: 15px; }
table.matrix td.cell { font-size: 13px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
table.matrix td.cell a { color: inherit; text-decoration: none; display: block; } table.matrix td.cell a:hover { text-decoration: underline; }
${cellColours}
td.cell .verdict-label { font-weight: 600; } td.cell .gist { color: #1f2328; } td.cell.v-observed .gist { font-weight: 500; }
td.cell.v-no-report { background: repeating-linear-gradient(135deg, #fff 0 6px, var(--bg-soft) 6px 12px); }
td.cell.expected { border: 1px dashed var(--muted); } td.cell .expectation { color: var(--muted); font-size: 12px; }
td.cell.now-passes .expectation, td.cell.regression .expectation, td.cell.unlisted .expectation { color: var(--fail); font-weight: 600; } td.cell.regression { outline: 2px solid var(--fail); outline-offset: -2px; }
@media screen { table.matrix td.rule, table.matrix th.rule-head { position: sticky; left: 0; z-index: 1; background: #fff; } table.matrix th.rule-head { background: var(--bg-soft); } }
tr.disagreement td.rule { box-shadow: inset 5px 0 #E69F00; background: #fff8c5; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.badge.differs { background: #E69F00; color: #1f2328; }
@media screen {
  body:has(#${FILTER_ID}:checked) table.matrix tr.rule-row:not(.disagreement) { display: none; }
  body:has(#${FILTER_ID}:checked) table.matrix tbody:not(:has(tr.disagreement)) { display: none; }
}
@media print { .filter { display: none; } .table-wrap { overflow: visible; } table.matrix { font-size: 11px; } tr.rule-row { break-inside: avoid; } }
`;
