/** The judge's report as JUnit XML for CI dashboards: one test case per rule, failed, skipped or passed as its verdict. */
import type { ConformanceReport, RuleRow } from '../../lib/verdicts/model.ts';

export function junitXml(report: ConformanceReport): string {
  const rows = report.rules.filter((row) => row.applies);
  const failures = rows.filter((row) => row.verdict === 'fail').length;
  const skipped = rows.filter((row) => row.verdict === 'skipped' || row.verdict === 'not-run').length;
  const cases = rows.map(testCase).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="petstore-conformance judge" tests="${rows.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${(report.run.durationMs / 1000).toFixed(3)}">
<testsuite name="${escape(report.target.url)}" tests="${rows.length}" failures="${failures}" skipped="${skipped}" errors="0" timestamp="${report.run.startedAt}">
${cases}
</testsuite>
</testsuites>
`;
}

function testCase(row: RuleRow): string {
  const name = escape(`${row.id} ${row.level} ${row.rule}`);
  const open = `<testcase classname="${escape(row.section)}" name="${name}">`;
  if (row.verdict === 'fail') return `${open}<failure message="${escape(row.failures[0]?.text ?? 'failed')}">${escape(row.failures.map((note) => note.text).join('\n'))}</failure></testcase>`;
  if (row.verdict === 'skipped' || row.verdict === 'not-run') return `${open}<skipped message="${escape(row.reason ?? row.verdict)}"/></testcase>`;
  const notes = [...row.warnings, ...row.unchecked, ...row.observations].map((note) => note.text);
  return `${open}${notes.length ? `<system-out>${escape(`${row.verdict}: ${notes.join('\n')}`)}</system-out>` : ''}</testcase>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
