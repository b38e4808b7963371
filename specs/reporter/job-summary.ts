/**
 * The run's verdict as Markdown for a CI job's summary page (GitHub's $GITHUB_STEP_SUMMARY): the verdict line
 * and its notes (spent keys and when to run again among them), a short table of the rules that failed or were left unchecked, each linked to its section of the spec
 * when the spec's address is known. The full reports travel as an artifact; this is what a reviewer reads first.
 */
import path from 'node:path';
import { sectionAnchors } from '../../lib/spec-sections.ts';
import { ageWords, throughWords, type CertificateRule, type CertifiedReport, type PartStanding } from '../../lib/verdicts/certificate.ts';
import { fromEarlierReport } from '../../lib/verdicts/provenance.ts';
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

/**
 * Where the certificate's evidence came from, beyond this run: a row per part of each rule that leaned on an
 * earlier report or was left out of scope (rule, part, standing, which report, how old), then the reports
 * that were not counted and why. Nothing when the run alone made the certificate.
 */
function evidenceLines(report: CertifiedReport): string[] {
  const certificate = report.certificate;
  if (!certificate) return [];
  const leaning = certificate.rules.filter((rule) => rule.parts.some(fromEarlierReport) || rule.verdict === 'not-in-scope' || rule.parts.some((part) => part.state === 'not-in-scope'));
  const ignored = certificate.reports.filter((item) => !item.counted);
  if (leaning.length === 0 && ignored.length === 0) return [];
  const lines = [`**Evidence** (within ${certificate.maxAge}; the run's own verdict: ${cell(certificate.ownVerdict.headline, 300)}):`, ''];
  if (leaning.length > 0) {
    lines.push('| rule | part | standing | where from | age |', '|---|---|---|---|---|');
    for (const rule of leaning.slice(0, MAX_ROWS)) {
      for (const part of rule.parts.length > 0 ? rule.parts : [undefined]) lines.push(partRow(rule, part, certificate.maxAge));
    }
    if (leaning.length > MAX_ROWS) lines.push('', `…and ${leaning.length - MAX_ROWS} more rules; the HTML report lists every one.`);
    lines.push('');
  }
  for (const considered of ignored) lines.push(`- Not counted: ${cell(considered.file, 200)} (${cell(considered.why ?? '', 200)})`);
  return [...lines, ''];
}

const STANDING: Record<PartStanding['state'], string> = { held: 'checked', failed: 'failed', unchecked: 'not checked', 'not-in-scope': 'not in scope' };

/** A part's row; a rule without parts (left out whole) gets one row of its own. */
function partRow(rule: CertificateRule, part: PartStanding | undefined, maxAge: string): string {
  const id = `\`${rule.id}\``;
  if (!part) return `| ${id} | (all) | ${rule.verdict === 'not-in-scope' ? 'not in scope' : rule.verdict} | declared out of scope | |`;
  const standing = part.state === 'held' && part.result && part.result !== 'pass' ? part.result : STANDING[part.state];
  if (part.state === 'not-in-scope') return `| ${id} | ${cell(part.part, 60)} | ${standing} | ${part.through ? cell(`through ${part.through.join(', ')}, declared out of scope: ${throughWords(part)}`, MAX_CELL) : 'declared out of scope'} | |`;
  if (part.state === 'unchecked') return `| ${id} | ${cell(part.part, 60)} | ${standing} | no report within ${maxAge}${part.reason ? `: ${cell(part.reason, MAX_CELL)}` : ''} | |`;
  const by = part.by!;
  if (!by.file) return `| ${id} | ${cell(part.part, 60)} | ${standing} | this run | |`;
  const staging = by.staging ? ' (staging, VER-2)' : '';
  return `| ${id} | ${cell(part.part, 60)} | ${standing} | ${cell(`the ${by.label} of ${by.checkedAt.slice(0, 10)}${staging} (${shortFile(by.file)})`, MAX_CELL)} | ${ageWords(by.ageMs)} |`;
}

/** A report's file by its folder and name: CI paths are long, and the folder names the artifact. */
function shortFile(file: string): string {
  return path.join(path.basename(path.dirname(file)), path.basename(file));
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
