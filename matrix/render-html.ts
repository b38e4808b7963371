/**
 * The implementations matrix as one self-contained page (reports/certify/index.html): whether the run is as
 * expected and what to act on first, each implementation's badge and verdicts, the changes since the
 * baseline, then every rule side by side. Drawn from the Matrix alone; every text in it is escaped, since
 * names, problems and gists come from other people's servers.
 */
import { html, htmlPage, safeHref, type Html } from '../lib/html.ts';
import { utcMinute } from '../lib/utc-minute.ts';
import { LEVEL_BADGE_CSS } from '../lib/verdicts/level-badge.ts';
import { VERDICT_CHART_CSS, verdictChart, verdictLegend } from '../lib/verdicts/verdict-chart.ts';
import { emptyCounts, type VerdictCounts } from '../lib/verdicts/model.ts';
import { badgeSummary, renderBadge } from './badge.ts';
import { BASELINE_CHANGES_CSS, baselineChanges } from './baseline-changes.ts';
import { EXPECTATIONS_BANNER_CSS, expectationsBanner } from './expectations-banner.ts';
import { MATRIX_TABLE_CSS, matrixTable } from './matrix-table.ts';
import type { Matrix, MatrixImplementation } from './model.ts';

export function renderMatrix(matrix: Matrix): string {
  const body = html`
<header>
  <h1>Pet Store implementations matrix</h1>
  <p class="muted">${matrix.implementations.length} implementations against Pet Store ${matrix.specVersion} · suite ${matrix.suiteVersion} · generated ${utcMinute(matrix.generatedAt)} · rules catalogue <code title="${matrix.rulesHash}">${matrix.rulesHash.slice(0, 16)}</code></p>
</header>
${expectationsBanner(matrix)}
<h2>Implementations</h2>
<div class="implementations">${matrix.implementations.map((implementation) => implementationCard(implementation, matrix.specVersion))}</div>
${verdictLegend()}
<div class="charts">${verdictChart('Rules by verdict, per implementation', matrix.implementations.map((implementation, index) => [chartLabel(implementation), verdictCounts(matrix, index)]))}</div>
${baselineChanges(matrix)}
<h2>Rules</h2>
<p class="muted">One row per rule of <code>fixtures/rules.yaml</code>. A cell links to the evidence in that implementation's report; hover it for the detail. GAP rows (the spec is silent) show what each implementation does.</p>
${matrixTable(matrix)}
<footer class="muted">Machine-readable: <code>matrix.json</code> next to this page.</footer>`;
  return htmlPage({ title: `Implementations matrix: ${matrix.asExpected ? 'as expected' : 'not as expected'}`, body, css: CSS });
}

function implementationCard(implementation: MatrixImplementation, specVersion: string): Html {
  const badge = safeHref(implementation.badgeHref);
  // The badge's own file as a data URL: the page fetches nothing, and the page's styles cannot reach into it.
  const source = `data:image/svg+xml;base64,${Buffer.from(renderBadge(implementation, specVersion)).toString('base64')}`;
  const image = html`<img src="${source}" alt="${badgeSummary(implementation, specVersion)}">`;
  return html`<div class="card impl-card">
<div class="impl-badge">${badge ? html`<a href="${badge}">${image}</a>` : image}</div>
<div class="impl-name">${implementation.name}${implementation.version ? html` <span class="muted">${implementation.version}</span>` : ''}</div>
<div class="small">${implementation.headline}</div>
<div class="muted small"><code>${implementation.target}</code></div>
</div>`;
}

function chartLabel(implementation: MatrixImplementation): string {
  return implementation.state === undefined ? `${implementation.name} (no report)` : implementation.name;
}

function verdictCounts(matrix: Matrix, column: number): VerdictCounts {
  const counts = emptyCounts();
  for (const row of matrix.rows) {
    const verdict = row.cells[column]?.verdict;
    if (verdict !== undefined && verdict !== 'no-report') counts[verdict]++;
  }
  return counts;
}

const CSS = `${VERDICT_CHART_CSS}${LEVEL_BADGE_CSS}${EXPECTATIONS_BANNER_CSS}${BASELINE_CHANGES_CSS}${MATRIX_TABLE_CSS}
.small { font-size: 12px; }
.implementations { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; } .impl-card { max-width: 320px; } .impl-badge { margin-bottom: 6px; } .impl-badge svg { display: block; }
footer { margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; font-size: 12px; }
@media print { @page { size: landscape; margin: 12mm; } body { max-width: none; padding: 0; } }
`;
