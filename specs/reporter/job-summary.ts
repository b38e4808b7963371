/**
 * The run's verdict as Markdown for a CI job's summary page (GitHub's $GITHUB_STEP_SUMMARY): the verdict line
 * and its notes (spent keys and when to run again among them), a short table of the rules that failed or were left unchecked, each linked to its section of the spec
 * when the spec's address is known. The full reports travel as an artifact; this is what a reviewer reads first.
 */
import { sectionAnchors } from '../../lib/spec-sections.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import type { ConformanceReport, RuleRow } from '../../lib/verdicts/model.ts';

const MAX_ROWS = 20;
const MAX_CELL = 160;
const ICON: Record<ConformanceReport['verdict']['state'], string> = { conforming: '✅', 'not-conforming': '❌', incomplete: '⚠️' };

export interface SummaryLinks {
  /** Where the spec's Markdown is read online; rules link to their section's heading in it. */
  specUrl?: string;
  /** Where the run's reports can be downloaded (the CI run's page). */
  reportsUrl?: string;
}

export function jobSummary(report: CertifiedReport, links: SummaryLinks = {}, anchors: ReadonlyMap<string, string> = sectionAnchors()): string {
  const lines = [`## Pet Store conformance: ${report.target.url}`, '', `${ICON[report.verdict.state]} **${cell(report.verdict.headline, 2_000)}**`, ''];
  // The verdict's notes say what a reviewer must do next (a spent key: when to run again).
  for (const note of report.verdict.notes) lines.push(cell(note, 2_000), '');
  const certified = new Map((report.certificate?.rules ?? []).map((rule) => [rule.id, rule]));
  const verdictOf = (row: RuleRow): string => certified.get(row.id)?.verdict ?? row.verdict;
  const listed = report.rules.filter((row) => row.applies && (verdictOf(row) === 'fail' || (row.level === 'MUST' && ['partly-checked', 'skipped', 'not-run'].includes(verdictOf(row)))));
  if (listed.length > 0) {
    lines.push('| rule | level | verdict | what happened |', '|---|---|---|---|');
    for (const row of listed.slice(0, MAX_ROWS)) lines.push(`| ${ruleLink(row, links.specUrl, anchors)} | ${row.level} | ${verdictOf(row)} | ${cell(certified.get(row.id)?.line ?? whatHappened(row), MAX_CELL)} |`);
    if (listed.length > MAX_ROWS) lines.push('', `…and ${listed.length - MAX_ROWS} more rules; the HTML report lists every one.`);
    lines.push('');
  }
  lines.push(...evidenceLines(report));
  const warned = report.verdict.warnedShould.length;
  if (warned > 0) lines.push(`${warned} SHOULD rule${warned === 1 ? '' : 's'} warned: ${report.verdict.warnedShould.join(', ')}.`, '');
  const where = links.reportsUrl ? `[the run's artifacts](${links.reportsUrl})` : 'the reports folder';
  lines.push(`Full reports (HTML, JSON, JUnit) are in ${where}. Suite ${report.suiteVersion}, spec ${report.specVersion}.`, '');
  return lines.join('\n');
}

/** Where the certificate's evidence came from, beyond this run: per rule, which report and how old. */
function evidenceLines(report: CertifiedReport): string[] {
  const certificate = report.certificate;
  if (!certificate) return [];
  const borrowed = certificate.rules.filter((rule) => rule.parts.some((part) => part.by && part.by.label !== 'this run' && part.state !== 'unchecked') || rule.verdict === 'not-in-scope');
  const lines = [`**Evidence** (within ${certificate.maxAge}; the run's own verdict: ${cell(certificate.ownVerdict.headline, 300)}):`, ''];
  for (const rule of borrowed.slice(0, MAX_ROWS)) lines.push(`- ${cell(rule.line, 400)}`);
  if (borrowed.length > MAX_ROWS) lines.push(`- …and ${borrowed.length - MAX_ROWS} more rules; the HTML report lists every one.`);
  for (const considered of certificate.reports.filter((item) => !item.counted)) lines.push(`- Not counted: ${cell(considered.file, 200)} (${cell(considered.why ?? '', 200)})`);
  return [...lines, ''];
}

function whatHappened(row: RuleRow): string {
  const note = row.failures[0] ?? row.unchecked[0] ?? row.skippedTests[0];
  return note?.text ?? row.reason ?? '';
}

function ruleLink(row: RuleRow, specUrl: string | undefined, anchors: ReadonlyMap<string, string>): string {
  if (!specUrl) return `\`${row.id}\``;
  const anchor = anchors.get(row.section);
  return `[\`${row.id}\`](${specUrl}${anchor ? `#${anchor}` : ''})`;
}

/** One table cell: one line, no pipe that would end the cell, no HTML, bounded length. */
function cell(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
