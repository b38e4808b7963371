/**
 * The Locust engine's result (result.ts) as the run the built-in engine's verdicts read, so both engines share
 * one judge, one report and one exit code.
 *
 * A window's answers are summed, so what comes back is how many of each kind, their Remaining values, and
 * when (measured by the generators) the first and last of each kind were sent and answered. Each window's
 * answers are laid out over the time they were measured in, in the order the target handed them out:
 * admitted from the highest Remaining down, then refusals, then what was admitted after a refusal (requests
 * that aged out). So window counts, the countdown of Remaining, first refusals, days, Retry-After and bans
 * are judged from every generator together, on the target's own clock of windows however long they last;
 * the order of answers within one window and their latencies (a mean per window) are the layout's.
 */
import { LatencyRecorder } from '../latency.ts';
import { outcomeOf, type Observation } from '../observation.ts';
import { noteRefusal } from '../refusal-check.ts';
import type { Finding, KeyResult, RunResult } from '../runner.ts';
import type { ScenarioKey } from '../scenario.ts';
import { largest, smallest } from '../../../lib/extremes.ts';
import { readRateLimit } from '../../../lib/rate-limit-headers.ts';
import type { AdmittedPhase, EngineResult, LooseTally, Phase, RefusedPhase, WindowTally } from './result.ts';
import type { RunPlan } from './run-plan.ts';

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
      const placed = [
        ...(windowsByKey.get(index) ?? []).flatMap((window) => placeWindow(window, startedAtEpochMs)),
        ...(looseByKey.get(index) ?? []).flatMap((loose) => placeLoose(loose, startedAtEpochMs)),
      ].sort((a, b) => a.observation.sentAt - b.observation.sentAt);
      return keyResult(spec, perSecondOf(plan, index), placed, heldBack.get(index) ?? 0, startedAtEpochMs);
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

function placeWindow(window: WindowTally, start: number): Placed[] {
  const { limit, reset } = window;
  const headersOf = (remaining: number): Pick<Observation, 'limit' | 'remaining' | 'reset'> => ({ limit, remaining, reset });
  const admitted = spread(window.admitted, window.admitted.firstSent, start).map((times, i) => answer(window.admitted, times, i, headersOf(remainingAt(window.admitted, i)), undefined));
  const lastAdmittedSent = admitted.at(-1)?.observation.sentAt;
  const refusedFrom = Math.max(window.refused.firstSent ?? 0, lastAdmittedSent === undefined ? 0 : lastAdmittedSent + start);
  const waits = Object.entries(window.refused.waits)
    .flatMap(([wait, times]) => Array.from({ length: times }, () => wait))
    .sort((a, b) => (waitMs(a) ?? 0) - (waitMs(b) ?? 0));
  const refused = spread(window.refused, refusedFrom, start).map((times, i) => {
    const wait = waits[i] ?? '-';
    return answer(window.refused, times, i, { ...headersOf(0), retryAfterMs: waitMs(wait) }, {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(reset),
      'retry-after': retryAfterHeader(wait),
    });
  });
  const firstRefusalDone = refused[0]?.observation.doneAt;
  const lateFrom = Math.max(window.late.firstSent ?? 0, firstRefusalDone === undefined ? 0 : firstRefusalDone + start + 1);
  const late = spread(window.late, lateFrom, start).map((times, i) => answer(window.late, times, i, headersOf(remainingAt(window.late, i)), undefined));
  return [...admitted, ...refused, ...late];
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

/** The i-th highest Remaining value of the phase's runs. */
function remainingAt(phase: AdmittedPhase, index: number): number {
  let skipped = 0;
  for (const [high, low, times] of phase.remaining) {
    const here = (high - low + 1) * times;
    if (index < skipped + here) return high - Math.floor((index - skipped) / times);
    skipped += here;
  }
  return 0;
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
  phase: Phase | RefusedPhase,
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

function keyResult(spec: ScenarioKey, perSecond: number | null, placed: readonly Placed[], heldBack: number, start: number): KeyResult {
  const latencyAdmitted = new LatencyRecorder();
  const latencyRefused = new LatencyRecorder();
  const statusCounts: Record<string, number> = {};
  const refusalFindings: Record<string, Finding> = {};
  const errorExamples = new Set<string>();
  let withoutRateLimitHeaders = 0;
  const counts = { admitted: 0, refused: 0, error: 0 };
  for (const { observation, refusalHeaders, latencyMs: latency } of placed) {
    const status = observation.status === 0 ? 'no answer' : String(observation.status);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    counts[observation.outcome]++;
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
    observations: placed.map(({ observation }) => observation),
    sent: placed.length,
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
