import { LatencyRecorder } from '../latency.ts';
import { outcomeOf, type Observation } from '../observation.ts';
import { noteRefusal } from '../refusal-check.ts';
import type { Finding, KeyResult, RunResult } from '../runner.ts';
import type { ScenarioKey } from '../scenario.ts';
import { largest, smallest } from '../../../lib/extremes.ts';
import { readRateLimit } from '../../../lib/rate-limit-headers.ts';
import type { EngineResult, LooseTally, Phase, WindowTally } from './result.ts';
import type { RunPlan } from './run-plan.ts';
import { accountOfSums, valuesOf } from './sums-account.ts';

interface Placed {
  observation: Observation;
  latencyMs: number;
  /** The headers a 429 came with, for the shared refusal check. */
  refusalHeaders: Record<string, string | undefined> | undefined;
}

export function runFromResult(result: EngineResult, specs: readonly ScenarioKey[], plan: RunPlan): RunResult {
  const phases = [...result.windows.flatMap((w) => [w.admitted, w.refused, w.late]), ...result.loose].filter((phase) => phase.count > 0);
  const startedAtEpochMs = phases.length ? smallest(phases.map((phase) => phase.firstSent ?? Infinity)) : Date.now();
  const lastDone = phases.length ? largest(phases.map((phase) => phase.lastDone ?? 0)) : startedAtEpochMs;
  const elapsedMs = Math.max(plan.durationS * 1000, lastDone - startedAtEpochMs);
  const heldBack = new Map(result.heldBack);
  const windowsByKey = groupBy(result.windows, (window) => window.key);
  const looseByKey = groupBy(result.loose, (loose) => loose.key);
  return {
    startedAtEpochMs,
    elapsedMs,
    stoppedEarly: undefined,
    keys: specs.map((spec, index) => {
      const windows = windowsByKey.get(index) ?? [];
      const loose = (looseByKey.get(index) ?? []).flatMap((entry) => placeLoose(entry, startedAtEpochMs)).sort((a, b) => a.observation.sentAt - b.observation.sentAt);
      return { ...keyResult(spec, perSecondOf(plan, index), windows, loose, heldBack.get(index) ?? 0, startedAtEpochMs), summed: accountOfSums(windows, spec.plan, startedAtEpochMs) };
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

function placeLoose(loose: LooseTally, start: number): Placed[] {
  const sent = { 'x-ratelimit-limit': loose.headers.limit ?? undefined, 'x-ratelimit-remaining': loose.headers.remaining ?? undefined, 'x-ratelimit-reset': loose.headers.reset ?? undefined };
  const read = readRateLimit(sent);
  const headers = { limit: read?.limit, remaining: read?.remaining, reset: read?.reset };
  const refusal = loose.status === 429;
  return spread(loose, loose.firstSent, start).map((times, i) =>
    answer(loose, times, i, { ...headers, retryAfterMs: refusal ? waitMs(loose.wait) : undefined }, refusal ? { ...sent, 'retry-after': retryAfterHeader(loose.wait) } : undefined),
  );
}

/** A Retry-After as the generators bucketed it, written back as a header for the shared refusal check. */
function retryAfterHeader(wait: string): string | undefined {
  return wait === '-' ? undefined : wait.startsWith('x:') ? wait.slice(2) : String(Number(wait) / 1000);
}

/**
 * Each answer of a phase: sent evenly from `from` to its last send, in the order the target handed them out, each
 * answered before the next is sent (the target decided them one after the other), with the phase's mean latency.
 */
function spread(phase: Phase, from: number | null, start: number): Laid[] {
  if (phase.count === 0 || from === null) return [];
  const last = Math.max(from, phase.lastSent ?? from);
  const latencyMs = phase.latencyMs / phase.count;
  const spacing = phase.count === 1 ? 0 : (last - from) / (phase.count - 1);
  return Array.from({ length: phase.count }, (_, i) => {
    const sentAt = from + spacing * i - start;
    return { sentAt, doneAt: sentAt + (i === phase.count - 1 ? latencyMs : Math.min(latencyMs, spacing)), latencyMs };
  });
}

interface Laid {
  sentAt: number;
  doneAt: number;
  /** The phase's mean latency, which the report shows; doneAt only keeps the target's order. */
  latencyMs: number;
}

function waitMs(wait: string): number | undefined {
  return wait === '-' || wait.startsWith('x:') ? undefined : Number(wait);
}

/** The statuses of a phase, handed out in turn. */
function statusAt(phase: Phase, index: number): number {
  let skipped = 0;
  for (const [status, times] of Object.entries(phase.statuses)) {
    if (index < skipped + times) return Number(status);
    skipped += times;
  }
  return 0;
}

function answer(
  phase: Phase,
  times: Laid,
  index: number,
  headers: Pick<Observation, 'limit' | 'remaining' | 'reset'> & { retryAfterMs?: number | undefined },
  refusalHeaders: Record<string, string | undefined> | undefined,
): Placed {
  const status = statusAt(phase, index);
  const outcome = status === 0 ? 'error' : outcomeOf(status);
  // A phase's retries are its first answers: a retry opens the window the client waited for.
  const retry = index < phase.retries ? { waitedMs: 0, retryAfterMs: undefined } : undefined;
  return {
    latencyMs: times.latencyMs,
    refusalHeaders: outcome === 'refused' ? refusalHeaders : undefined,
    observation: {
      operation: 'list',
      intendedAt: times.sentAt,
      sentAt: times.sentAt,
      doneAt: times.doneAt,
      status,
      outcome,
      limit: headers.limit,
      remaining: headers.remaining,
      reset: headers.reset,
      retryAfterMs: headers.retryAfterMs,
      retry,
      error: status === 0 ? 'no answer' : status >= 500 || status === 401 ? `HTTP ${status}` : undefined,
    },
  };
}

function keyResult(spec: ScenarioKey, perSecond: number | null, windows: readonly WindowTally[], loose: readonly Placed[], heldBack: number, start: number): KeyResult {
  const latencyAdmitted = new LatencyRecorder();
  const latencyRefused = new LatencyRecorder();
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
  // Summed answers: a phase's latency is known as a sum only, so each of its answers is recorded at the mean.
  const recordMean = (recorder: LatencyRecorder, phase: Phase): void => {
    for (let i = 0; i < phase.count; i++) recorder.recordMs(phase.latencyMs / phase.count);
  };
  for (const window of windows) {
    for (const phase of [window.admitted, window.late, window.refused]) for (const [status, times] of Object.entries(phase.statuses)) count(Number(status), times);
    recordMean(latencyAdmitted, window.admitted);
    recordMean(latencyAdmitted, window.late);
    recordMean(latencyRefused, window.refused);
    const now = window.refused.firstDone ?? start;
    const remaining = valuesOf(window.refused.remaining ?? []);
    let index = 0;
    for (const [wait, times] of Object.entries(window.refused.waits)) {
      for (let i = 0; i < times; i++, index++) {
        const headers = { 'x-ratelimit-limit': String(window.limit), 'x-ratelimit-remaining': String(remaining[index] ?? 0), 'x-ratelimit-reset': String(window.reset), 'retry-after': retryAfterHeader(wait) };
        noteRefusal(refusalFindings, { operation: 'listPets', status: 429, headers, body: '', plan: spec.plan, now });
      }
    }
  }
  for (const { observation, refusalHeaders, latencyMs: latency } of loose) {
    count(observation.status, 1);
    if (observation.status !== 0 && (observation.limit === undefined || observation.remaining === undefined || observation.reset === undefined)) withoutRateLimitHeaders++;
    if (observation.outcome === 'admitted') latencyAdmitted.recordMs(latency);
    if (observation.outcome === 'refused') {
      latencyRefused.recordMs(latency);
      if (refusalHeaders) noteRefusal(refusalFindings, { operation: 'listPets', status: 429, headers: refusalHeaders, body: '', plan: spec.plan, now: start + observation.doneAt });
    }
    if (observation.error) errorExamples.add(observation.error);
  }
  return {
    spec,
    perSecond: perSecond ?? undefined,
    observations: loose.map(({ observation }) => observation),
    sent: counts.admitted + counts.refused + counts.error,
    admitted: counts.admitted,
    refused: counts.refused,
    errors: counts.error,
    heldBack,
    statusCounts,
    latency: { admitted: latencyAdmitted.summary(), refused: latencyRefused.summary() },
    refusalFindings,
    withoutRateLimitHeaders,
    errorExamples: [...errorExamples].slice(0, 5),
  };
}
