/** The conformance report as a self-contained HTML page for a reviewer: verdict first, then counts, charts and one row per rule. */
import { html, htmlPage, type Html } from '../../lib/html.ts';
import { LEVELS } from '../../lib/rules.ts';
import { levelBadge, LEVEL_BADGE_CSS } from '../../lib/verdicts/level-badge.ts';
import { VERDICT_CHART_CSS, verdictChart, verdictLegend } from '../../lib/verdicts/verdict-chart.ts';
import { REFUSAL_WAIT_LEGEND, refusalWaitChart } from '../../lib/verdicts/refusal-wait-chart.ts';
import type { Evidence, TestOutcome } from '../../lib/verdicts/test-record.ts';
import { certificateSection } from './certificate-html.ts';
import type { CertifiedReport, PartState } from '../../lib/verdicts/certificate.ts';
import { VERDICTS, type ConformanceReport, type RuleRow, type RuleVerdict, type TestNote, type VerdictCounts } from '../../lib/verdicts/model.ts';

const VERDICT_CLASS: Record<RuleVerdict, string> = { pass: 'pass', fail: 'fail', warn: 'warn', 'partly-checked': 'partial', observed: 'info', skipped: 'muted', 'not-run': 'muted' };
const STATE_CLASS = { conforming: 'pass', 'not-conforming': 'fail', incomplete: 'warn' } as const;
const OUTCOME_MARK: Record<TestOutcome, [string, string]> = {
  passed: ['✓', 'pass'],
  failed: ['✗', 'fail'],
  skipped: ['↷', 'muted'],
  interrupted: ['■', 'warn'],
  'not-run': ['·', 'muted'],
};

/** `live`: what a live page (the watcher's) shows first under the verdict, and its title. */
export function renderReport(report: CertifiedReport, live?: { title: string; section: Html }): string {
  const body = html`
<header>
  <h1>${live?.title ?? 'Pet Store conformance report'}</h1>
  <p class="target">Target <code>${report.target.url}</code> ${modeBadges(report)}</p>
  ${facts(report)}
</header>
${verdictBlock(report)}
${live?.section ?? ''}
${certificateSection(report)}
${cards(report)}
<h2>Verdicts by level and by section</h2>
${verdictLegend()}
<div class="charts">
  ${verdictChart('Rules by level', LEVELS.map((level) => [level, report.counts.byLevel[level]]))}
  ${verdictChart('Rules by section of the spec', Object.entries(report.counts.bySection))}
</div>
<h2>Rules</h2>
<p class="muted">One row per rule of <code>fixtures/rules.yaml</code>, in the order of the spec. MUST violations fail, SHOULD violations warn, GAP rules (the spec is silent) are observed and never fail.</p>
${rulesTable(report.rules, report.counts.bySection)}
${generatedSection(report)}
${clientWaitsSection(report)}
${throttlingSection(report)}
${problemsSection(report)}
<footer class="muted">Machine-readable: <code>conformance.json</code> next to this page. API keys appear as the variables that hold them (<code>$PETSTORE_API_KEY_FREE</code> …).</footer>`;
  return htmlPage({ title: `Conformance: ${report.verdict.state} – ${report.target.url}`, body, css: CSS });
}

function modeBadges(report: ConformanceReport): Html {
  return html`${report.target.bundled ? html`<span class="badge info">bundled reference server</span>` : ''}
${report.target.readOnly ? html`<span class="badge warn">read-only</span>` : ''}
<span class="badge ${report.target.quotaTests ? 'info' : 'muted'}">quota tests ${report.target.quotaTests ? 'on' : 'off'}</span>`;
}

function facts(report: ConformanceReport): Html {
  const rows: Array<[string, Html | string]> = [
    ['Date', new Date(report.generatedAt).toUTCString()],
    ['Suite version', report.suiteVersion],
    ['Spec version', report.specVersion],
    ['Git commit', html`<code>${report.gitCommit}</code>`],
    ['Rules catalogue hash', html`<code title="${report.rulesHash}">${report.rulesHash.slice(0, 16)}</code>`],
    ['Run', `${report.run.status}, ${formatDuration(report.run.durationMs)}`],
  ];
  return html`<dl class="facts">${rows.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}</dl>`;
}

function verdictBlock(report: ConformanceReport): Html {
  const { verdict } = report;
  const items: Html[] = [];
  if (verdict.failedMust.length > 0) items.push(html`<li>Failing MUST rules: ${ruleLinks(verdict.failedMust)}</li>`);
  for (const [reason, rules] of groupByReason(verdict.skippedMust)) items.push(html`<li>MUST ${rules.length === 1 ? 'rule' : 'rules'} ${ruleLinks(rules)} not checked: ${short(reason)}</li>`);
  for (const { rule, reason, setting } of verdict.partlyCheckedMust) {
    items.push(html`<li>MUST rule ${ruleLinks([rule])} partly checked: ${short(reason)}${setting ? html` <span class="muted">(to check it: <code>${setting}</code>)</span>` : ''}</li>`);
  }
  if (verdict.warnedShould.length > 0) items.push(html`<li>SHOULD rules with warnings: ${ruleLinks(verdict.warnedShould)}</li>`);
  const skipped = skippedTests(verdict.partiallySkipped);
  if (skipped.length > 0) {
    const list = html`<ul>${skipped.map(({ test, reason, rules }) => html`<li><q>${test}</q> (${ruleLinks(rules)}): ${short(reason)}</li>`)}</ul>`;
    items.push(html`<li>${skipped.length} test${skipped.length === 1 ? ' was' : 's were'} skipped within rules that otherwise held${skipped.length > 3 ? html`<details><summary>show them</summary>${list}</details>` : list}</li>`);
  }
  for (const note of verdict.notes) items.push(html`<li>${note}</li>`);
  return html`<section class="verdict ${STATE_CLASS[verdict.state]}" id="verdict">${verdict.headline}${items.length > 0 ? html`<ul class="verdict-notes">${items}</ul>` : ''}</section>`;
}

/**
 * The counts under the verdict. With a certificate they are the certificate's (its rules, and their parts by
 * standing), so that no card says "5 rules partly-checked" under a Conforming certificate that covered them;
 * the tests are this run's own.
 */
function cards(report: CertifiedReport): Html {
  const { counts, certificate } = report;
  const card = (n: number, label: string, cls = ''): Html => html`<div class="card"><div class="n ${cls}">${n}</div><div class="l">${label}</div></div>`;
  const ruleCards = certificate
    ? [...VERDICTS, 'not-in-scope' as const].map((verdict) => {
        const n = certificate.rules.filter((rule) => rule.verdict === verdict).length;
        return card(n, `rules ${verdict} (certificate)`, n > 0 ? (verdict === 'not-in-scope' ? 'info' : VERDICT_CLASS[verdict]) : 'muted');
      })
    : VERDICTS.map((verdict) => card(counts.rules[verdict], `rules ${verdict}`, counts.rules[verdict] > 0 ? VERDICT_CLASS[verdict] : 'muted'));
  const parts = certificate?.rules.flatMap((rule) => rule.parts) ?? [];
  const partCount = (state: PartState): number => parts.filter((part) => part.state === state).length;
  return html`<div class="cards">
${ruleCards}
${certificate ? card(parts.length, `parts: ${partCount('held')} held · ${partCount('failed')} failed · ${partCount('unchecked')} unchecked · ${partCount('not-in-scope')} not in scope`, partCount('failed') > 0 ? 'fail' : partCount('unchecked') > 0 ? 'warn' : '') : ''}
${card(counts.tests.total, `${certificate ? "this run's " : ''}tests: ${counts.tests.passed} passed · ${counts.tests.failed} failed · ${counts.tests.skipped} skipped`)}
${card(counts.throttledTests, 'tests throttled', counts.throttledTests > 0 ? 'warn' : 'muted')}
</div>`;
}

function rulesTable(rows: readonly RuleRow[], bySection: ConformanceReport['counts']['bySection']): Html {
  const sections = [...new Set(rows.map((row) => row.section))];
  return html`<table class="rules">
<thead><tr><th>Rule</th><th>What it checks</th><th>Verdict</th><th>Tests</th></tr></thead>
${sections.map(
  (section) => html`<tbody><tr class="section-row"><th colspan="4">${section} <span class="section-counts">${sectionCounts(bySection[section])}</span></th></tr>
${rows.filter((row) => row.section === section).map(ruleRows)}</tbody>`,
)}
</table>`;
}

function sectionCounts(counts: VerdictCounts | undefined): Html {
  if (!counts) return html``;
  return html`${VERDICTS.filter((verdict) => counts[verdict] > 0).map((verdict) => html`<span class="${VERDICT_CLASS[verdict]}">${counts[verdict]} ${verdict}</span>`)}`;
}

function ruleRows(row: RuleRow): Html {
  const detail = ruleDetail(row);
  return html`<tr id="rule-${row.id}" class="row-${row.verdict}">
<td class="id"><a href="#rule-${row.id}"><strong>${row.id}</strong></a><br>${levelBadge(row.level)}${row.subject === 'client' ? html` <span class="badge muted">client</span>` : ''}</td>
<td>${row.rule}${row.silent ? html`<div class="muted small">Silent: ${row.silent}</div>` : ''}</td>
<td class="verdict-cell"><span class="badge ${VERDICT_CLASS[row.verdict]}">${row.verdict}</span>${row.reason ? html`<div class="muted small">${row.reason}</div>` : ''}${
    row.throttledTests > 0 ? html`<div class="small warn">${row.throttledTests} throttled</div>` : ''
  }</td>
<td>${testList(row)}</td>
</tr>${detail ? html`<tr class="detail"><td></td><td colspan="3">${detail}</td></tr>` : ''}`;
}

function testList(row: RuleRow): Html {
  if (row.tests.length === 0) return html`<span class="muted">none</span>`;
  const items = row.tests.map((test) => {
    const [mark, cls] = OUTCOME_MARK[test.outcome];
    return html`<li><span class="${cls}" title="${test.outcome}">${mark}</span> ${test.title}${test.cites ? '' : html` <span class="muted">(names it)</span>`} <span class="muted small">${test.file}:${test.line}</span></li>`;
  });
  return items.length > 4
    ? html`<details><summary>${items.length} tests</summary><ul class="tests">${items}</ul></details>`
    : html`<ul class="tests">${items}</ul>`;
}

function ruleDetail(row: RuleRow): Html | undefined {
  const parts: Html[] = [];
  if (row.failures.length > 0) parts.push(notes('Failures', row.failures, 'fail', true));
  if (row.evidence.length > 0) parts.push(html`${row.evidence.map(evidenceBlock)}`);
  // With one test behind the rule, naming it again beside each note adds nothing.
  const named = row.tests.length > 1;
  if (row.warnings.length > 0) parts.push(notes('Warnings', row.warnings, 'warn', false, named));
  if (row.observations.length > 0) parts.push(notes('Observed', row.observations, 'info', false, named));
  if (row.skippedTests.length > 0) parts.push(notes('Skipped tests', row.skippedTests, 'muted', false));
  return parts.length > 0 ? html`${parts}` : undefined;
}

function notes(heading: string, items: readonly TestNote[], cls: string, preformatted: boolean, named = true): Html {
  return html`<div class="notes"><strong class="${cls}">${heading}</strong><ul>${items.map(
    (item) => html`<li>${named ? html`<span class="muted">${item.test}:</span> ` : ''}${preformatted ? html`<pre>${item.text}</pre>` : item.text}</li>`,
  )}</ul></div>`;
}

function evidenceBlock(evidence: Evidence & { test: string }): Html {
  return html`<details class="evidence" open><summary>Evidence from <q>${evidence.test}</q></summary>
<div class="exchange"><div><h4>Request</h4><pre>${messageText(evidence.request, 'request')}</pre></div><div><h4>Response</h4><pre>${messageText(evidence.response, 'response')}</pre></div></div>
${evidence.curl ? html`<h4>Reproduce</h4><pre class="curl">${evidence.curl}</pre>` : ''}
</details>`;
}

interface MessageLike {
  method?: unknown;
  url?: unknown;
  status?: unknown;
  statusText?: unknown;
  headers?: unknown;
  body?: unknown;
}

/** An HTTP message as a reader expects it (start line, headers, body), whatever reasonable shape the evidence uses. */
export function messageText(message: unknown, kind: 'request' | 'response'): string {
  if (message === undefined || message === null) return '(not recorded)';
  if (typeof message !== 'object') return String(message);
  const m = message as MessageLike;
  const start = kind === 'request' ? `${String(m.method ?? '')} ${String(m.url ?? '')}`.trim() : `HTTP ${String(m.status ?? '?')} ${String(m.statusText ?? '')}`.trim();
  const headers =
    m.headers && typeof m.headers === 'object'
      ? Object.entries(m.headers as Record<string, unknown>).map(([name, value]) => `${name}: ${String(value)}`)
      : [];
  const body = m.body === undefined || m.body === null || m.body === '' ? '' : typeof m.body === 'string' ? prettyJson(m.body) : JSON.stringify(m.body, null, 2);
  return [start, ...headers, ...(body ? ['', body] : [])].join('\n');
}

function prettyJson(text: string): string {
  // Re-indent only when that loses nothing: an id above 2^53 must keep its digits.
  try {
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    return /\d{16,}/.test(text) ? text : pretty;
  } catch {
    return text;
  }
}

function generatedSection(report: ConformanceReport): Html {
  if (report.generated.length === 0) return html``;
  const counts = (record: Record<string, number>): string => Object.entries(record).map(([name, count]) => `${name} ×${count}`).join(', ');
  return html`<h2>Generated requests</h2>
<p class="muted">Each property of the generated project: the kind of request it sends (within the contract: judged by its rule; outside it: any client error with an Error, or a lenient reading; at a gap: accepted exactly, or refused with 400 and an Error), the input classes it sent (every run sends each class, then seeded random requests), and what the target answered. Seed ${String(report.generated[0]!.seed)}.</p>
<table class="generated"><thead><tr><th>Property</th><th>Kind</th><th>Requests</th><th>Input classes sent</th><th>Answers</th></tr></thead><tbody>
${report.generated.map((item) => html`<tr><td>${item.property} <span class="muted">(${item.outcome})</span></td><td>${item.kind}</td><td>${String(item.requests)}</td><td>${counts(item.classes)}</td><td>${counts(item.answers)}</td></tr>`)}
</tbody></table>`;
}

function clientWaitsSection(report: ConformanceReport): Html {
  if (!report.clientWaits || report.clientWaits.length === 0) return html``;
  return html`<h2>What the client waited after each 429</h2><p class="muted">One chart per key that met a 429. ${REFUSAL_WAIT_LEGEND}</p>
<div style="display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:4px 24px">${report.clientWaits.map((client) => refusalWaitChart(`key ${client.key}`, client.waits))}</div>`;
}

function throttlingSection(report: ConformanceReport): Html {
  if (report.throttling.length === 0) return html`<h2>Throttling</h2><p class="muted">No test met a 429 it had to wait out.</p>`;
  return html`<h2>Throttling</h2><p>${report.counts.throttledTests} test(s) met a 429 outside the rate-limit measurements and waited it out as Retry-After asked (with backoff). These are not failures.</p>
<ul>${report.throttling.map((item) => html`<li><span class="muted">${item.test}:</span> ${item.text}</li>`)}</ul>`;
}

function problemsSection(report: ConformanceReport): Html {
  if (report.problems.length === 0) return html``;
  return html`<h2 class="fail">Problems in the suite's citations</h2><ul>${report.problems.map((problem) => html`<li>${problem}</li>`)}</ul>`;
}

/** Skipped tests once each, with every rule they cite, however many rules list them. */
function skippedTests(partial: ConformanceReport['verdict']['partiallySkipped']): Array<{ test: string; reason: string; rules: string[] }> {
  const byTest = new Map<string, { test: string; reason: string; rules: string[] }>();
  for (const { rule, tests } of partial) {
    for (const { test, text } of tests) {
      const entry = byTest.get(test) ?? { test, reason: text, rules: [] };
      entry.rules.push(rule);
      byTest.set(test, entry);
    }
  }
  return [...byTest.values()];
}

/** The first part of a long reason for the summary at the top; the rule's row has it whole. */
function short(reason: string, max = 180): string {
  const first = reason.split('; ')[0] ?? reason;
  const text = first.length > max ? `${first.slice(0, max).replace(/\s+\S*$/, '')}…` : first;
  return text.length < reason.length && !text.endsWith('…') ? `${text}; …` : text;
}

function groupByReason(skipped: ReadonlyArray<{ rule: string; reason: string }>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { rule, reason } of skipped) groups.set(reason, [...(groups.get(reason) ?? []), rule]);
  return groups;
}

function ruleLinks(ids: readonly string[]): Html {
  return html`${ids.map((id, index) => html`${index > 0 ? ', ' : ''}${ruleLink(id)}`)}`;
}

function ruleLink(id: string): Html {
  return html`<a href="#rule-${id}">${id}</a>`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const CSS = `${VERDICT_CHART_CSS}${LEVEL_BADGE_CSS}
header .target { margin: 4px 0 12px; font-size: 15px; } header .badge { margin-left: 4px; }
.facts { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 0; } .facts div { min-width: 120px; }
.facts dt { color: var(--muted); font-size: 12px; } .facts dd { margin: 0; font-weight: 500; }
.verdict { border-left: 6px solid; } .verdict.pass { border-color: var(--pass); } .verdict.fail { border-color: var(--fail); } .verdict.warn { border-color: var(--warn); }
.partial { color: #8250df; } .badge.partial { background: #8250df; color: #fff; } .card .n.partial { color: #8250df; }
.verdict-notes { font-size: 14px; font-weight: 400; margin: 8px 0 0; padding-left: 20px; color: #1f2328; }
.verdict a, .notes a { color: inherit; }
.cards .card { min-width: 100px; } .card .n.muted { color: var(--muted); } .card .n.info { color: var(--info); }
table.rules td.id { white-space: nowrap; width: 120px; }
table.rules tr.section-row th { background: #fff; border-bottom: 2px solid var(--line); padding-top: 18px; font-size: 15px; }
.section-counts { font-weight: 400; font-size: 12px; margin-left: 8px; } .section-counts span { margin-right: 10px; }
table.rules td.verdict-cell { width: 150px; }
table.rules tr.row-fail td:first-child { box-shadow: inset 4px 0 var(--fail); } table.rules tr.row-warn td:first-child { box-shadow: inset 4px 0 var(--warn); }
table.rules tr.detail td { border-top: none; padding-top: 0; }
table.rules tr:has(+ tr.detail) td { border-bottom: none; }
ul.tests { list-style: none; margin: 0; padding: 0; } ul.tests li { margin: 0 0 2px; }
.small { font-size: 12px; } .notes ul { margin: 4px 0 8px; padding-left: 18px; } .notes pre { margin: 4px 0; }
.evidence { margin: 6px 0 10px; } .evidence h4 { margin: 6px 0 2px; font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; } .exchange pre { margin: 0; max-height: 320px; overflow: auto; }
pre.curl { background: #24292f; color: #f6f8fa; }
footer { margin-top: 32px; border-top: 1px solid var(--line); padding-top: 8px; font-size: 12px; }
@media (max-width: 800px) { .exchange { grid-template-columns: 1fr; } }
`;
