/**
 * reports/replay/summary.json: the figures of a replay and its findings, for machines (CI, dashboards)
 * as the HTML report is for people. Keys never appear: findings went through the redactor when kept.
 */
import type { Violation } from '../../lib/response-checks.ts';
import { firstFinding, type ReplayResults } from './results.ts';
import type { Survey } from './survey.ts';

export interface ReplayRun {
  capture: string;
  target: string;
  bundled: boolean;
  speed: number;
  concurrency: number;
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  warnings: string[];
  aborted: string | undefined;
  /** The largest heap in use after a full garbage collection (see memory.ts). */
  peakLiveHeapMb: number;
}

/** One exchange that needs a look; the first ones carry their evidence, later ones only the first finding. */
export interface FindingSummary {
  sequence: number;
  entry: number;
  method: string;
  path: string;
  verdict: string;
  status: { recorded: number; replayed: number | null };
  first: string;
  sentPath?: string;
  violations?: Violation[];
  differences?: Array<{ where: string; recorded: string | null; replayed: string | null }>;
  throttle?: { retries: number; waitedMs: number; gaveUp: boolean };
  recorded429?: string | null;
  error?: string | null;
}

export type ReplaySummary = ReturnType<typeof replaySummary>;

export function replaySummary(run: ReplayRun, survey: Survey, results: ReplayResults) {
  const failed = exitCodeFor(run, results) !== 0;
  return {
    // schemas/replay-summary.schema.json
    format: 'petstore-replay-summary' as const,
    formatVersion: 1 as const,
    verdict: failed ? 'fail' : 'pass',
    exitCode: exitCodeFor(run, results),
    capture: run.capture,
    recordedBase: survey.base.url,
    target: run.target,
    bundledTarget: run.bundled,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(run.durationMs),
    options: { speed: run.speed, concurrency: run.concurrency, strict: run.strict },
    exchanges: results.exchanges,
    identical: results.verdicts.identical,
    violations: { exchanges: results.verdicts.violation, total: results.violationsTotal, byRule: Object.fromEntries([...results.byRule].sort()) },
    differences: { exchanges: results.withDifferences },
    throttled: { ...results.throttling, waitedMs: Math.round(results.throttling.waitedMs) },
    errors: results.verdicts.error,
    skipped: { otherHosts: sum(survey.otherHosts.values()), byHost: Object.fromEntries(survey.otherHosts), unanswered: survey.unanswered },
    byOperation: Object.fromEntries(results.byOperation),
    latencyMs: {
      recorded: percentiles(results.recordedLatency),
      replayed: percentiles(results.replayedLatency),
    },
    throughput: { exchangesPerSecond: Math.round((results.exchanges / Math.max(1, run.durationMs)) * 1000) },
    process: { peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), peakLiveHeapMb: run.peakLiveHeapMb },
    warnings: run.warnings,
    aborted: run.aborted ?? null,
    findings: [
      ...results.detailedFindings().map((result): FindingSummary => ({
        sequence: result.sequence,
        entry: result.entry,
        method: result.method,
        path: result.path,
        sentPath: result.sentPath,
        verdict: result.verdict,
        status: { recorded: result.recorded.status, replayed: result.replayed?.status ?? null },
        first: firstFinding(result),
        violations: result.violations,
        differences: result.differences.map(({ where, recorded, replayed }) => ({ where, recorded: recorded ?? null, replayed: replayed ?? null })),
        throttle: result.throttle,
        recorded429: result.recorded429 ?? null,
        error: result.error ?? null,
      })),
      ...results.listedFindings().map((line): FindingSummary => ({
        sequence: line.sequence,
        entry: line.entry,
        method: line.method,
        path: line.path,
        verdict: line.verdict,
        status: { recorded: line.recordedStatus, replayed: line.replayedStatus ?? null },
        first: line.first,
      })),
    ],
    findingsNotListed: results.unlisted,
  };
}

export function exitCodeFor(run: Pick<ReplayRun, 'strict'>, results: ReplayResults): number {
  if (results.verdicts.violation > 0 || results.verdicts.error > 0 || results.throttling.gaveUp > 0) return 1;
  if (run.strict && results.withDifferences > 0) return 1;
  return 0;
}

interface Percentiles {
  getValueAtPercentile(percentile: number): number;
  totalCount: number;
}

function percentiles(histogram: Percentiles): { p50: number; p90: number; p99: number; count: number } | null {
  if (histogram.totalCount === 0) return null;
  const at = (p: number): number => Math.round(histogram.getValueAtPercentile(p) / 10) / 100;
  return { p50: at(50), p90: at(90), p99: at(99), count: histogram.totalCount };
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
