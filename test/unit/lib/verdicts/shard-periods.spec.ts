/**
 * certify merges shards' reports only within one period of traffic: this week's shards and last week's are two
 * merged reports, each named with its period; a shard of one period is never taken for the missing shard of
 * another; shards whose periods overlap but differ are refused with both periods said; reports that say no
 * period (written before reports said it) merge as they always did.
 */
import { expect, test } from '@playwright/test';
import type { ReportEvidence, TrafficPeriod } from '../../../../lib/verdicts/evidence.ts';
import { mergedShards, PERIOD_SLACK_MS, ShardEvidenceError } from '../../../../lib/verdicts/shard-evidence.ts';

const LAST_WEEK: TrafficPeriod = { from: '2026-11-16T00:00:00.000Z', to: '2026-11-22T23:59:59.000Z' };
const THIS_WEEK: TrafficPeriod = { from: '2026-11-23T00:00:00.000Z', to: '2026-11-29T23:59:59.000Z' };

/** Shard `index` of 2 over `period`: it failed RL-3 when `fails`, held it otherwise. */
function shard(index: number, period: TrafficPeriod | undefined, fails = false): { file: string; evidence: ReportEvidence } {
  return {
    file: `${period?.from.slice(0, 10) ?? 'unsaid'}/shard-${index}/conformance.json`,
    evidence: {
      source: 'judge',
      label: 'production traffic',
      target: { baseUrl: 'https://api.example.test/v1' },
      startedAt: period?.to ?? '2026-11-29T00:00:00.000Z',
      shard: { index, count: 2 },
      ...(period ? { period } : {}),
      specVersion: '1.0.0',
      parts: [{ rule: 'RL-3', part: 'traffic', result: fails ? 'fail' : 'pass', checked: true, checkedAt: period?.to ?? '2026-11-29T00:00:00.000Z' }],
    },
  };
}

const later = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();

test('two periods of complete shards merge into one report each, named with its period', () => {
  const merged = mergedShards([shard(1, THIS_WEEK), shard(2, LAST_WEEK, true), shard(2, THIS_WEEK), shard(1, LAST_WEEK)], '--evidence');
  expect(merged.map((report) => report.file)).toEqual([
    '2026-11-16/shard-1/conformance.json + 2026-11-16/shard-2/conformance.json (the traffic from 2026-11-16 00:00:00 to 2026-11-22 23:59:59 UTC)',
    '2026-11-23/shard-1/conformance.json + 2026-11-23/shard-2/conformance.json (the traffic from 2026-11-23 00:00:00 to 2026-11-29 23:59:59 UTC)',
  ]);
  // Last week's failure stays last week's: it is not merged into this week's report.
  expect(merged.map((report) => report.evidence.parts[0]?.result)).toEqual(['fail', 'pass']);
  expect(merged.map((report) => report.evidence.period)).toEqual([LAST_WEEK, THIS_WEEK]);
  expect(merged.every((report) => report.evidence.shard === undefined)).toBe(true);
});

test("a shard of another period is not taken for this period's missing shard: the period missing one is named", () => {
  expect(() => mergedShards([shard(1, THIS_WEEK), shard(2, LAST_WEEK)], '--evidence')).toThrow(ShardEvidenceError);
  expect(() => mergedShards([shard(1, THIS_WEEK), shard(2, LAST_WEEK)], '--evidence')).toThrow(
    '--evidence 2026-11-16/shard-2/conformance.json: shard 1/2 of "production traffic" of https://api.example.test/v1 for the traffic from 2026-11-16 00:00:00 to 2026-11-22 23:59:59 UTC missing',
  );
});

test('shards of one run stopped a little apart are one period; periods that overlap but differ are refused, both said', () => {
  const stoppedApart = { from: THIS_WEEK.from, to: later(THIS_WEEK.to, PERIOD_SLACK_MS - 1_000) };
  const merged = mergedShards([shard(1, THIS_WEEK), shard(2, stoppedApart)], '--evidence');
  expect(merged).toHaveLength(1);
  expect(merged[0]?.evidence.period).toEqual({ from: THIS_WEEK.from, to: stoppedApart.to });

  const startedLater = { from: later(THIS_WEEK.from, 86_400_000), to: THIS_WEEK.to };
  expect(() => mergedShards([shard(1, THIS_WEEK), shard(2, startedLater)], '--evidence')).toThrow(
    '--evidence 2026-11-24/shard-2/conformance.json: shard 2/2 of "production traffic" of https://api.example.test/v1 read the traffic from 2026-11-24 00:00:00 to 2026-11-29 23:59:59 UTC, but shard 1/2 (2026-11-23/shard-1/conformance.json) read the traffic from 2026-11-23 00:00:00 to 2026-11-29 23:59:59 UTC: shards of one run read the same traffic; give the reports of one period, one per shard',
  );
});

test('reports that say no period merge as before, apart from those that do', () => {
  const merged = mergedShards([shard(1, undefined), shard(2, undefined), shard(1, THIS_WEEK), shard(2, THIS_WEEK)], '--evidence');
  expect(merged.map((report) => report.file)).toEqual(['unsaid/shard-1/conformance.json + unsaid/shard-2/conformance.json', '2026-11-23/shard-1/conformance.json + 2026-11-23/shard-2/conformance.json (the traffic from 2026-11-23 00:00:00 to 2026-11-29 23:59:59 UTC)']);
  expect(() => mergedShards([shard(1, undefined), shard(1, undefined)], '--evidence')).toThrow(/shard 1\/2 .* is given twice/);
});
