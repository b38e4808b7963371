/**
 * The client matrix as one self-contained page (reports/client-matrix/index.html): whether the run is as recorded
 * and the same in every run, each client's verdicts with the evidence beside them, then, client by client, what it
 * waited after each 429 against what the 429 asked. Every text is escaped: evidence quotes requests.
 */
import { html, htmlPage, type Html } from '../../lib/html.ts';
import { REFUSAL_WAIT_LEGEND, refusalWaitChart } from '../../lib/verdicts/refusal-wait-chart.ts';
import { CLIENT_RULES } from '../../harness/judge/client-exchange.ts';
import { MATRIX_CLOCK_RATE, type Cell, type ClientResult } from './client-matrix.ts';

export interface MatrixRunFacts {
  runs: number;
  /** Verdicts that differed between runs, and verdicts unlike the recorded ones, as lines a reviewer reads. */
  unstable: readonly string[];
  changed: readonly string[];
}

const CELL_CLASS: Readonly<Record<Cell, string>> = { pass: 'pass', warn: 'warn', 'partly-checked': 'muted', skipped: 'muted', 'not-run': 'muted' };

export function renderClientMatrix(results: readonly ClientResult[], facts: MatrixRunFacts): string {
  const problems = [...facts.unstable.map((line) => `unstable: ${line}`), ...facts.changed.map((line) => `changed: ${line}`)];
  const state = problems.length === 0 ? 'pass' : 'fail';
  const headline = problems.length === 0 ? `As recorded${facts.runs > 1 ? `, the same verdicts in all ${facts.runs} runs` : ''}` : `Not as recorded: ${problems.length} ${problems.length === 1 ? 'cell' : 'cells'}`;
  const body = html`
<header>
  <h1>Client matrix: ERR-3 and ERR-4</h1>
  <p class="muted">${results.length} clients through the refusing server's plan (seed 1), at a clock ${MATRIX_CLOCK_RATE} times faster · ${facts.runs} ${facts.runs === 1 ? 'run' : 'runs'}</p>
</header>
<div class="verdict ${state}">${headline}</div>
${problems.length > 0 ? html`<ul>${problems.map((line) => html`<li><code>${line}</code></li>`)}</ul>` : ''}
<h2>Verdicts</h2>
<table>
<thead><tr><th>client</th><th>configuration</th><th>version</th>${CLIENT_RULES.map((rule) => html`<th>${rule}</th>`)}<th>requests</th></tr></thead>
<tbody>${results.map(resultRow)}</tbody>
</table>
<h2>What each client waited after a 429</h2>
<p class="muted">One chart per client, on the key that met the most refusals. ${REFUSAL_WAIT_LEGEND}</p>
<div class="charts">${results.map(waitChart)}</div>
<footer class="muted">Machine-readable: <code>matrix.json</code> next to this page. Recorded verdicts: <code>matrix/clients/expectations.yaml</code>.</footer>`;
  return htmlPage({ title: `Client matrix: ${headline}`, body, css: CSS });
}

function resultRow(result: ClientResult): Html {
  return html`<tr><td><strong>${result.name}</strong></td><td>${result.description}</td><td class="muted">${result.versions}</td>${CLIENT_RULES.map(
    (rule) => html`<td><span class="badge ${CELL_CLASS[result.verdicts[rule]]}">${result.verdicts[rule]}</span>${result.evidence[rule] ? html`<div class="small muted">${result.evidence[rule]}</div>` : ''}</td>`,
  )}<td>${result.requests}</td></tr>`;
}

function waitChart(result: ClientResult): Html {
  if (result.waits.length === 0) return html`<div class="card"><strong>${result.name}</strong><p class="muted">met no 429</p></div>`;
  return refusalWaitChart(result.name, result.waits);
}

const CSS = `
.small { font-size: 12px; } .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(540px, 1fr)); gap: 12px; }
`;
