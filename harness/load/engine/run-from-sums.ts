/**
 * The Locust engine's run as the verdicts read it: every generator's answers as the sums they shipped (result.ts),
 * never answers made up to stand for them. The 429s are held to the rules a 429 shows on what their sums say
 * (refusal-sums.ts); the answers no window holds (errors, headers missing or unreadable) are counted with the headers
 * they came with, and the chart draws them over the time they were sent in.
 */
import { LatencyRecorder } from '../latency.ts';
import { outcomeOf } from '../observation.ts';
import type { Finding, KeyResult, RunResult } from '../runner.ts';
import type { ScenarioKey } from '../scenario.ts';
import type { SentBetween } from '../timeline.ts';
import { largest, smallest } from '../../../lib/extremes.ts';
import { readRateLimit } from '../../../lib/rate-limit-headers.ts';
import type { EngineResult, LatencyTally, LooseTally, WindowTally } from './result.ts';
import type { RunPlan } from './run-plan.ts';
import { headersOf, noteLooseRefusals, noteWindowRefusals } from './refusal-sums.ts';
import { accountOfSums, generatorSkewMs } from './sums-account.ts';
import { minuteAtScaleMs } from '../verdicts/short-windows.ts';

export function runFromResult(result: EngineResult, specs: readonly ScenarioKey[], plan: RunPlan): RunResult {
  const phases = [...result.windows.flatMap((w) => [w.admitted, w.refused, w.late]), ...result.loose].filter((phase) => phase.count > 0);
  const startedAtEpochMs = phases.length ? smallest(phases.map((phase) => phase.firstSent ?? Infinity)) : Date.now();
  const lastDone = phases.length ? largest(phases.map((phase) => phase.lastDone ?? 0)) : startedAtEpochMs;
  const elapsedMs = Math.max(plan.durationS * 1000, lastDone - startedAtEpochMs);
  const heldBack = new Map(result.heldBack);
  const windowsByKey = groupBy(result.windows, (window) => window.key);
  const looseByKey = groupBy(result.loose, (loose) => loose.key);
  const latencyByKey = groupBy(result.latency, (latency) => latency.key);
  return {
    startedAtEpochMs,
    elapsedMs,
    stoppedEarly: undefined,
    keys: specs.map((spec, index) => {
      const windows = windowsByKey.get(index) ?? [];
      const loose = looseByKey.get(index) ?? [];
      const summed = accountOfSums(windows, loose, spec.plan, startedAtEpochMs, generatorSkewMs(result.generators.length, plan.oneMachine === true), minuteAtScaleMs(plan.timeScale));
      return { ...keyResult(spec, perSecondOf(plan, index), windows, loose, latencyByKey.get(index) ?? [], heldBack.get(index) ?? 0), summed: { ...summed, sentBetween: [...summed.sentBetween, ...loose.flatMap((entry) => sentBetweenOf(entry, startedAtEpochMs))] } };
    }),
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}

function perSecondOf(plan: RunPlan, index: number): number | null {
  return plan.keys.find((group) => index >= group.index && index < group.index + group.count)?.perSecond ?? null;
}

/** Answers no window holds, for the run's chart: as many as were sent between the first and the last of them. */
function sentBetweenOf(loose: LooseTally, start: number): SentBetween[] {
  if (loose.count === 0 || loose.firstSent === null) return [];
  const outcome = loose.status === 0 ? 'error' : outcomeOf(loose.status);
  return [{ outcome, count: loose.count, from: loose.firstSent - start, to: (loose.lastSent ?? loose.firstSent) - start }];
}

function keyResult(spec: ScenarioKey, perSecond: number | null, windows: readonly WindowTally[], loose: readonly LooseTally[], latencies: readonly LatencyTally[], heldBack: number): KeyResult {
  // Each answer's latency as the master bucketed it: the percentiles come from what was measured.
  const latency = { admitted: new LatencyRecorder(), refused: new LatencyRecorder() };
  for (const { outcome, micros } of latencies) for (const [bucket, times] of micros) latency[outcome].recordBucket(bucket, times);
  const statusCounts: Record<string, number> = {};
  const refusalFindings: Record<string, Finding> = {};
  const errorExamples = new Set<string>();
  let withoutRateLimitHeaders = 0;
  const counts = { admitted: 0, refused: 0, error: 0 };
  const count = (status: number, times: number): void => {
    const name = status === 0 ? 'no answer' : String(status);
    statusCounts[name] = (statusCounts[name] ?? 0) + times;
    counts[status === 0 ? 'error' : outcomeOf(status)] += times;
  };
  for (const window of windows) {
    for (const phase of [window.admitted, window.late, window.refused]) for (const [status, times] of Object.entries(phase.statuses)) count(Number(status), times);
    noteWindowRefusals(refusalFindings, window, spec.plan);
  }
  for (const entry of loose) {
    count(entry.status, entry.count);
    if (entry.status !== 0 && readRateLimit(headersOf(entry)) === undefined) withoutRateLimitHeaders += entry.count;
    noteLooseRefusals(refusalFindings, entry, spec.plan);
    if (entry.status === 0) errorExamples.add('no answer');
    else if (entry.status >= 500 || entry.status === 401) errorExamples.add(`HTTP ${entry.status}`);
  }
  return {
    spec,
    perSecond: perSecond ?? undefined,
    // Sums, not answers: the verdicts read them as sums (summed).
    observations: [],
    sent: counts.admitted + counts.refused + counts.error,
    admitted: counts.admitted,
    refused: counts.refused,
    errors: counts.error,
    heldBack,
    statusCounts,
    latency: { admitted: latency.admitted.summary(), refused: latency.refused.summary() },
    refusalFindings,
    withoutRateLimitHeaders,
    errorExamples: [...errorExamples].slice(0, 5),
  };
}
