/** The one-screen summary printed at the end of a run. */
import { keyListing } from './key-listing.ts';
import type { LoadSummary } from './summary.ts';
import type { VerdictStatus } from './verdicts/verdict.ts';

/** Enough to see what broke; the rest is in the report, so the summary stays one screen. */
const MAX_FAILURES_SHOWN = 5;

const MARK: Record<VerdictStatus, string> = { fail: '✘', warn: '!', inconclusive: '?', pass: '✔', observed: '·', 'not-checked': '–' };

export function textSummary(summary: LoadSummary, reportPath: string): string {
  const lines: string[] = [];
  lines.push('');
  lines.push(`${summary.status === 'pass' ? '✔ PASS' : '✘ FAIL'}  ${summary.headline}`);
  for (const plan of summary.plans) lines.push(`  ${MARK[plan.status]} ${plan.sentence}`);
  lines.push('');
  const header = ['key', 'rate', 'sent', 'admitted', '429', 'errors', 'held back', 'p50 / p99 ms'];
  const { listed, summed } = keyListing(summary.keys);
  const rows = listed.map((key) => [
    key.label,
    key.rate.replace(/ \(.*\)$/, ''),
    key.sent.toLocaleString('en-US'),
    key.admitted.toLocaleString('en-US'),
    key.refused.toLocaleString('en-US'),
    key.errors.toLocaleString('en-US'),
    key.heldBack.toLocaleString('en-US'),
    `${key.latency.admitted.p50} / ${key.latency.admitted.p99}`,
  ]);
  const count = (value: number): string => value.toLocaleString('en-US');
  for (const sum of summed) rows.push([`${count(sum.keys)} other ${sum.planName} keys, none failed`, '', count(sum.sent), count(sum.admitted), count(sum.refused), count(sum.errors), count(sum.heldBack), '']);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (row: string[]): string => `  ${row.map((cell, column) => (column <= 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`;
  lines.push(format(header));
  for (const row of rows) lines.push(format(row));
  const failed = summary.keys.flatMap((key) => key.verdicts.filter((v) => v.status === 'fail' || v.status === 'warn').map((v) => ({ key, v })));
  if (failed.length > 0) {
    lines.push('');
    for (const { key, v } of failed.slice(0, MAX_FAILURES_SHOWN)) {
      lines.push(`  ${MARK[v.status]} ${v.rules.join(', ')} ${key.label}: ${v.title}: ${v.detail}`);
      if (v.evidence[0]) lines.push(`      e.g. ${v.evidence[0]}`);
    }
    if (failed.length > MAX_FAILURES_SHOWN) lines.push(`  … and ${failed.length - MAX_FAILURES_SHOWN} more in the report`);
  }
  const bans = listed.filter((key) => key.bans.length > 0);
  if (bans.length > 0) {
    lines.push('');
    for (const key of bans) lines.push(`  · ERR-GAP-3 ${key.label}: ${key.verdicts.find((v) => v.check === 'ban')?.detail ?? ''}`);
  }
  lines.push('');
  lines.push(`  Report: ${reportPath} (summary.json beside it)`);
  return lines.join('\n');
}
