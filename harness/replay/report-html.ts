/**
 * reports/replay/index.html: the verdict and the figures first, then the exchanges that need a reader
 * (conformance violations, differences, throttling, errors) with their evidence: the request, the recorded
 * and the replayed response side by side, and the differing lines highlighted. Identical exchanges follow,
 * capped, with a count of the rest.
 */
import { formatNumber, formatSeconds, groupedBarChart, stackedChart, STATUS_COLOURS } from '../../lib/charts.ts';
import { html, htmlPage, type Html } from '../../lib/html.ts';
import { findRule } from '../../lib/rules.ts';
import { bodyView } from './json-view.ts';
import { throttleNote, VERDICTS, type FindingLine, type ReplayResults } from './results.ts';
import type { ExchangeResult, Verdict } from './run-exchange.ts';
import type { ReplayRun, ReplaySummary } from './summary.ts';

const VERDICT_LABEL: Record<Verdict, string> = {
  identical: 'identical',
  different: 'different',
  violation: 'violation',
  throttled: 'throttled',
  error: 'error',
};
const VERDICT_CLASS: Record<Verdict, string> = { identical: 'pass', different: 'warn', violation: 'fail', throttled: 'muted', error: 'fail' };
const VERDICT_COLOUR: Record<Verdict, string> = {
  identical: STATUS_COLOURS.pass,
  different: STATUS_COLOURS.warn,
  violation: STATUS_COLOURS.fail,
  throttled: STATUS_COLOURS.refused,
  error: STATUS_COLOURS.error,
};

const CSS = `
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.cols > div { min-width: 0; }
.exchange { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 8px 0; }
.exchange > summary { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.exchange h4 { margin: 12px 0 4px; font-size: 13px; }
mark { background: #ffd8b5; display: inline-block; min-width: 100%; }
pre.marked { background: #ffebe9; }
td.recorded { background: #ffebe9; } td.replayed { background: #dafbe1; }
.headers td { padding: 1px 8px; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; border: none; }
`;

export function replayReportHtml(run: ReplayRun, summary: ReplaySummary, results: ReplayResults): string {
  const passed = summary.verdict === 'pass';
  const headline = passed
    ? `Replay passed: ${summary.exchanges} exchange(s), no conformance violation${run.strict ? ' and no difference' : ''}`
    : `Replay failed: ${failureReason(summary, run)}`;
  const body = html`
<h1>Traffic replay</h1>
<p class="muted">${summary.capture} (recorded at ${summary.recordedBase}) replayed against ${summary.target}${summary.bundledTarget ? ' (bundled reference server)' : ''} on ${summary.startedAt}</p>
<div class="verdict ${passed ? 'pass' : 'fail'}">${headline}</div>
${run.aborted ? html`<p class="fail"><strong>Stopped early:</strong> ${run.aborted}</p>` : ''}
${cards(summary)}
${run.warnings.length ? html`<h2>Warnings</h2><ul>${run.warnings.map((warning) => html`<li class="warn">${warning}</li>`)}</ul>` : ''}
${details(summary)}
${charts(results)}
${rulesTable(summary)}
${operationsTable(summary)}
${skippedTable(summary)}
<h2>Exchanges that need a look</h2>
${findings(results)}
<h2>Identical exchanges</h2>
${identical(results)}
`;
  return htmlPage({ title: `Replay: ${summary.capture}`, body, css: CSS });
}

function failureReason(summary: ReplaySummary, run: ReplayRun): string {
  const reasons: string[] = [];
  if (summary.violations.exchanges) reasons.push(`${summary.violations.exchanges} exchange(s) break the contract`);
  if (summary.errors) reasons.push(`${summary.errors} exchange(s) got no answer`);
  if (summary.throttled.gaveUp) reasons.push(`${summary.throttled.gaveUp} exchange(s) stayed refused (429)`);
  if (run.strict && summary.differences.exchanges) reasons.push(`${summary.differences.exchanges} exchange(s) differ from the recording (--strict)`);
  return reasons.join('; ');
}

function cards(summary: ReplaySummary): Html {
  const card = (value: number | string, label: string, tone = ''): Html => html`<div class="card"><div class="n ${tone}">${typeof value === 'number' ? formatNumber(value) : value}</div><div class="l">${label}</div></div>`;
  return html`<div class="cards">
${card(summary.exchanges, 'exchanges replayed')}
${card(summary.violations.exchanges, 'with conformance violations', summary.violations.exchanges ? 'fail' : 'pass')}
${card(summary.differences.exchanges, 'with differences', summary.differences.exchanges ? 'warn' : 'pass')}
${card(summary.throttled.exchanges, 'throttled (429 waited out)', summary.throttled.exchanges ? 'warn' : '')}
${card(summary.skipped.otherHosts + summary.skipped.unanswered, 'skipped (other hosts, unanswered)')}
${card(summary.identical, 'identical')}
${summary.errors ? card(summary.errors, 'transport errors', 'fail') : ''}
${card(`${formatNumber(summary.throughput.exchangesPerSecond)}/s`, `in ${formatSeconds(summary.durationMs / 1000)}`)}
</div>`;
}

function details(summary: ReplaySummary): Html {
  const t = summary.throttled;
  return html`<table>
<tr><th>Options</th><td>speed ${summary.options.speed === 0 ? '0 (as fast as possible)' : summary.options.speed}, concurrency ${summary.options.concurrency}${summary.options.strict ? ', strict' : ''}</td></tr>
<tr><th>Throttling</th><td>${t.exchanges} exchange(s) refused with 429 and retried ${t.retries} time(s) after waiting ${formatSeconds(t.waitedMs / 1000)} in all; ${t.gaveUp} still refused after the last retry.
Recorded 429s: ${t.recorded429}, of which ${t.recorded429NotReproduced} were answered this time (not counted as differences: quotas depend on all other use of the key).</td></tr>
<tr><th>Compared</th><td>status, headers and body; left out: X-RateLimit-*, Retry-After and Date values (presence is compared), transport headers, ids the target assigned anew, and the ignore files. Lists of items with ids are compared regardless of order.</td></tr>
</table>`;
}

function charts(results: ReplayResults): Html {
  const seconds = results.perSecond;
  const parts: Html[] = [];
  if (seconds.length > 1) {
    parts.push(
      stackedChart({
        title: 'Exchanges per second of the replay, by verdict',
        x: { label: 'time since start', format: formatSeconds, min: 0 },
        y: { label: 'exchanges per second', min: 0 },
        buckets: seconds.map((_, index) => index),
        bucketWidth: 1,
        kind: 'bar',
        series: VERDICTS.map((verdict) => ({ name: VERDICT_LABEL[verdict], colour: VERDICT_COLOUR[verdict], values: seconds.map((bucket) => bucket[verdict]) })),
      }),
    );
  }
  const at = (histogram: ReplayResults['recordedLatency'], p: number): number => histogram.getValueAtPercentile(p) / 1000;
  if (results.recordedLatency.totalCount > 0 && results.replayedLatency.totalCount > 0) {
    parts.push(
      groupedBarChart({
        title: 'Response time, recorded against replayed',
        categories: ['p50', 'p90', 'p99'],
        groups: [
          { name: 'recorded', values: [50, 90, 99].map((p) => at(results.recordedLatency, p)) },
          { name: 'replayed', values: [50, 90, 99].map((p) => at(results.replayedLatency, p)) },
        ],
        y: { label: 'milliseconds', min: 0 },
        xLabel: 'percentile',
      }),
    );
  }
  return parts.length ? html`<h2>Charts</h2>${parts}` : html``;
}

function rulesTable(summary: ReplaySummary): Html {
  const rows = Object.entries(summary.violations.byRule);
  if (rows.length === 0) return html``;
  return html`<h2>Conformance violations by rule</h2><table><tr><th>Rule</th><th>Level</th><th>Violations</th><th>What the spec says</th></tr>
${rows.map(([id, count]) => {
    const rule = findRule(id);
    return html`<tr><td><code>${id}</code></td><td>${rule?.level ?? ''}</td><td>${count}</td><td>${rule?.rule ?? ''}</td></tr>`;
  })}</table>`;
}

function operationsTable(summary: ReplaySummary): Html {
  return html`<h2>By operation</h2><table><tr><th>Operation</th><th>Exchanges</th><th>Identical</th><th>With violations</th><th>With differences</th></tr>
${Object.entries(summary.byOperation).map(
  ([operation, figures]) =>
    html`<tr><td><code>${operation === 'other' ? 'no operation of the contract' : operation}</code></td><td>${figures.exchanges}</td><td>${figures.identical}</td><td class="${figures.violations ? 'fail' : ''}">${figures.violations}</td><td class="${figures.differences ? 'warn' : ''}">${figures.differences}</td></tr>`,
)}</table>`;
}

function skippedTable(summary: ReplaySummary): Html {
  const hosts = Object.entries(summary.skipped.byHost);
  if (hosts.length === 0 && summary.skipped.unanswered === 0) return html``;
  return html`<h2>Skipped entries</h2><table><tr><th>Why</th><th>Entries</th></tr>
${hosts.map(([host, count]) => html`<tr><td>another host or base: <code>${host}</code></td><td>${count}</td></tr>`)}
${summary.skipped.unanswered ? html`<tr><td>not answered when recorded (status 0)</td><td>${summary.skipped.unanswered}</td></tr>` : ''}
</table>`;
}

function findings(results: ReplayResults): Html {
  const detailed = results.detailedFindings();
  const listed = results.listedFindings();
  if (detailed.length === 0) return html`<p class="pass">None: every exchange conforms and matches the recording.</p>`;
  // Violations first, then errors, differences and throttling, each in replay order.
  const rank: Record<Verdict, number> = { violation: 0, error: 1, different: 2, throttled: 3, identical: 4 };
  const ordered = [...detailed].sort((a, b) => rank[a.verdict] - rank[b.verdict] || a.sequence - b.sequence);
  return html`${ordered.map((result) => exchange(result, true))}
${listed.length ? html`<h3>${listed.length} more, one line each</h3>${findingLines(listed)}` : ''}
${results.unlisted ? html`<p class="muted">and ${formatNumber(results.unlisted)} more findings, counted above but not listed.</p>` : ''}`;
}

function findingLines(lines: FindingLine[]): Html {
  return html`<table><tr><th>#</th><th>Entry</th><th>Request</th><th>Status</th><th>Verdict</th><th>First finding</th></tr>
${lines.map(
  (line) =>
    html`<tr><td>${line.sequence}</td><td>${line.entry}</td><td><code>${line.method} ${line.path}</code></td><td>${line.recordedStatus} → ${line.replayedStatus ?? '—'}</td><td><span class="badge ${VERDICT_CLASS[line.verdict]}">${VERDICT_LABEL[line.verdict]}</span></td><td>${line.first}</td></tr>`,
)}</table>`;
}

function identical(results: ReplayResults): Html {
  const shown = results.identicalShown();
  const rest = results.plainIdentical - shown.length;
  if (results.plainIdentical === 0) return html`<p class="muted">None.</p>`;
  return html`${shown.map((result) => exchange(result, false))}
${rest > 0 ? html`<p class="muted">and ${formatNumber(rest)} more identical exchanges, not listed.</p>` : ''}`;
}

function exchange(result: ExchangeResult, open: boolean): Html {
  const recordedMarks = new Set<string>();
  const replayedMarks = new Set<string>();
  for (const difference of result.differences) {
    if (difference.where === 'body') {
      recordedMarks.add('');
      replayedMarks.add('');
    }
    if (difference.recordedPointer !== undefined) recordedMarks.add(difference.recordedPointer);
    if (difference.replayedPointer !== undefined) replayedMarks.add(difference.replayedPointer);
  }
  const differingHeaders = new Set(result.differences.filter((d) => d.where.startsWith('header ')).map((d) => d.where.slice('header '.length)));
  const status = `${result.recorded.status} → ${result.replayed?.status ?? 'no answer'}`;
  const note = throttleNote(result);
  return html`<details class="exchange" id="exchange-${result.sequence}" ${open ? 'open' : ''}>
<summary><span class="badge ${VERDICT_CLASS[result.verdict]}">${VERDICT_LABEL[result.verdict]}</span> #${result.sequence} (entry ${result.entry}) <strong>${result.method} ${result.path}</strong> ${status}${result.operation ? html` <span class="muted">${result.operation}</span>` : ''}</summary>
${result.error ? html`<p class="fail">Transport error: ${result.error}</p>` : ''}
${note ? html`<p class="warn">${note}</p>` : ''}
${result.violations.length ? html`<h4>Conformance violations</h4><ul>${result.violations.map((v) => html`<li class="fail"><code>${v.rule}</code> ${v.message}</li>`)}</ul>` : ''}
${result.differences.length ? differencesTable(result) : ''}
<h4>Request</h4>
<pre>${result.method} ${result.path}${result.sentPath !== result.path ? `\n(sent as ${result.method} ${result.sentPath}: ids remapped)` : ''}
${result.requestHeaders.map(([name, value]) => `${name}: ${value}\n`)}${result.requestBody ? `\n${result.requestBody}` : ''}</pre>
<div class="cols">
<div><h4>Recorded response: ${result.recorded.status}</h4>${headerTable(result.recorded.headers, differingHeaders)}${bodyView(result.recorded.body, recordedMarks)}</div>
<div><h4>Replayed response: ${result.replayed?.status ?? 'none'}${result.replayed ? html` <span class="muted">(${formatNumber(result.replayed.ms)} ms)</span>` : ''}</h4>${result.replayed ? html`${headerTable(result.replayed.headers, differingHeaders)}${bodyView(result.replayed.body, replayedMarks)}` : ''}</div>
</div>
</details>`;
}

function differencesTable(result: ExchangeResult): Html {
  return html`<h4>Differences from the recording</h4><table><tr><th>Where</th><th>Recorded</th><th>Replayed</th></tr>
${result.differences.map(
  (d) => html`<tr><td><code>${d.where}</code></td><td class="recorded"><code>${d.recorded ?? '(absent)'}</code></td><td class="replayed"><code>${d.replayed ?? '(absent)'}</code></td></tr>`,
)}</table>`;
}

function headerTable(headers: Readonly<Record<string, string>>, differing: ReadonlySet<string>): Html {
  return html`<table class="headers">${Object.entries(headers).map(
    ([name, value]) => html`<tr>${differing.has(name) ? html`<td><mark>${name}</mark></td><td><mark>${value}</mark></td>` : html`<td>${name}</td><td>${value}</td>`}</tr>`,
  )}</table>`;
}
