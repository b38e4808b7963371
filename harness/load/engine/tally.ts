/**
 * Reads Locust's aggregated result back: the master's stats file, in which every QUOTA event name (see
 * locustfile.ts) carries the count of answers of that kind summed over every generator. The counts become
 * the run the verdicts of the built-in engine read, so both engines share one judge, one report and one exit code.
 *
 * What the sum cannot say is when each answer came; only the target's own words place it:
 * - a window is its X-RateLimit-Limit and -Reset, exactly as the built-in engine groups answers;
 * - a minute window is laid out over the minute's real length before its Reset (60 s / time scale): admitted
 *   answers first, from the highest Remaining down (the order the target handed them out), then refusals;
 * - a day window (its Limit is the daily quota) sits just before its Reset: it binds only once the day's
 *   quota is nearly spent, after every minute window of that day.
 * So the window counts, the countdown of Remaining, the first refusal, the day's total, Retry-After and bans
 * are judged from all generators together; the order of answers within one window, and latency (Locust
 * keeps an average per kind of answer), are the layout's, not measured.
 */
import { readFileSync } from 'node:fs';
import { LatencyRecorder } from '../latency.ts';
import { outcomeOf, type Observation } from '../observation.ts';
import type { Finding, KeyResult, RunResult } from '../runner.ts';
import type { ScenarioKey } from '../scenario.ts';
import { classOf } from '../windows.ts';
import { InputError } from '../input-error.ts';
import { EVENT_LAYOUT, type RunPlan } from './locustfile.ts';
import { largest, smallest } from '../../../lib/extremes.ts';

interface Tally {
  keyIndex: number;
  status: number;
  limit: number | undefined;
  remaining: number | undefined;
  reset: number | undefined;
  /** undefined: absent; NaN: unreadable. */
  retryAfterMs: number | undefined;
  retry: boolean;
  count: number;
  averageMs: number;
}

/** Share of a minute window over which its admitted answers, then its refusals, are laid out. */
const ADMITTED_SHARE = 0.5;
const REFUSED_SHARE = 0.45;

export function readTallies(path: string, plan: RunPlan): Tally[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the engine's result ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; give the master's <prefix>_stats.csv`);
  }
  const [header = '', ...rows] = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const columns = header.split(',');
  const at = (name: string): number => {
    const index = columns.indexOf(name);
    if (index === -1) throw new InputError(`${path}: not a Locust stats file (no "${name}" column)`);
    return index;
  };
  const [type, name, count, average] = [at('Type'), at('Name'), at('Request Count'), at('Average Response Time')];
  const tallies: Tally[] = [];
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[type] !== 'QUOTA') continue;
    const fields = (cells[name] ?? '').split('|');
    if (fields.length !== 8 || fields[0] !== EVENT_LAYOUT) throw new InputError(`${path}: event "${cells[name]}" was not written by this version's locustfile.py; export the test again`);
    const keyIndex = Number(fields[1]);
    if (!Number.isInteger(keyIndex) || plan.keys[keyIndex] === undefined) throw new InputError(`${path}: event for key ${fields[1]}, which ${plan.scenario} does not have: was the result made from another export?`);
    const number = (value: string | undefined): number | undefined => (value === undefined || value === '-' ? undefined : Number(value));
    tallies.push({
      keyIndex,
      status: Number(fields[2]),
      limit: number(fields[3]),
      remaining: number(fields[4]),
      reset: number(fields[5]),
      retryAfterMs: fields[6] === 'x' ? Number.NaN : number(fields[6]),
      retry: fields[7] === '1',
      count: Number(cells[count]),
      averageMs: Number(cells[average]),
    });
  }
  return tallies;
}

interface Placed {
  atEpochMs: number;
  observation: Omit<Observation, 'intendedAt' | 'sentAt' | 'doneAt'>;
  latencyMs: number;
  retryAfterUnreadable: boolean;
}

export function runFromTallies(tallies: readonly Tally[], specs: readonly ScenarioKey[], plan: RunPlan): RunResult {
  const minuteMs = 60_000 / plan.timeScale;
  const placedByKey = specs.map((spec, keyIndex) => place(tallies.filter((tally) => tally.keyIndex === keyIndex), spec, minuteMs));
  const stamps = placedByKey.flat().map((placed) => placed.atEpochMs).filter(Number.isFinite);
  const startedAtEpochMs = stamps.length ? smallest(stamps) : Date.now();
  const elapsedMs = Math.max(plan.durationS * 1000, largest(stamps) - startedAtEpochMs);
  return {
    startedAtEpochMs,
    elapsedMs,
    stoppedEarly: undefined,
    keys: specs.map((spec, index) => keyResult(spec, plan.keys[index]?.perSecond ?? null, placedByKey[index] ?? [], startedAtEpochMs, elapsedMs)),
  };
}

function place(tallies: readonly Tally[], spec: ScenarioKey, minuteMs: number): Placed[] {
  const observedLimits = [...new Set(tallies.flatMap((t) => (t.limit === undefined ? [] : [t.limit])))];
  const groups = new Map<string, Tally[]>();
  const loose: Tally[] = [];
  for (const tally of tallies) {
    if (tally.limit === undefined || tally.reset === undefined || outcomeOf(tally.status) === 'error') {
      loose.push(tally);
      continue;
    }
    const id = `${tally.limit}|${tally.reset}`;
    const group = groups.get(id);
    if (group) group.push(tally);
    else groups.set(id, [tally]);
  }
  const placed: Placed[] = [];
  for (const members of groups.values()) {
    const { limit, reset } = members[0] as Tally & { limit: number; reset: number };
    const isDay = classOf(limit, spec.plan, observedLimits) === 'day';
    const start = isDay ? reset * 1000 - 2 : reset * 1000 - minuteMs;
    const admitted = expand(members.filter((t) => outcomeOf(t.status) === 'admitted')).sort((a, b) => (b.remaining ?? 0) - (a.remaining ?? 0));
    const refused = expand(members.filter((t) => outcomeOf(t.status) === 'refused'));
    admitted.forEach((tally, i) => placed.push(observation(tally, isDay ? start : start + (i / admitted.length) * ADMITTED_SHARE * minuteMs)));
    refused.forEach((tally, i) => placed.push(observation(tally, isDay ? start + 1 : start + (ADMITTED_SHARE + (i / refused.length) * REFUSED_SHARE) * minuteMs)));
  }
  const end = placed.reduce((latest, p) => Math.max(latest, p.atEpochMs), 0);
  for (const tally of expand(loose)) placed.push(observation(tally, end));
  return placed.sort((a, b) => a.atEpochMs - b.atEpochMs);
}

function expand(tallies: readonly Tally[]): Tally[] {
  return tallies.flatMap((tally) => Array.from({ length: tally.count }, () => tally));
}

function observation(tally: Tally, atEpochMs: number): Placed {
  const outcome = outcomeOf(tally.status);
  return {
    atEpochMs,
    latencyMs: tally.averageMs,
    retryAfterUnreadable: Number.isNaN(tally.retryAfterMs),
    observation: {
      operation: 'list',
      status: tally.status,
      outcome,
      limit: tally.limit,
      remaining: tally.remaining,
      reset: tally.reset,
      retryAfterMs: tally.retryAfterMs === undefined || Number.isNaN(tally.retryAfterMs) ? undefined : tally.retryAfterMs,
      retry: tally.retry ? { waitedMs: 0, retryAfterMs: undefined } : undefined,
      error: outcome === 'error' ? (tally.status === 0 ? 'no answer' : `HTTP ${tally.status}`) : undefined,
    },
  };
}

function keyResult(spec: ScenarioKey, perSecond: number | null, placed: readonly Placed[], startedAtEpochMs: number, elapsedMs: number): KeyResult {
  const latencyAdmitted = new LatencyRecorder();
  const latencyRefused = new LatencyRecorder();
  const statusCounts: Record<string, number> = {};
  const refusalFindings: Record<string, Finding> = {};
  const note = (rule: string, example: string): void => {
    const finding = (refusalFindings[rule] ??= { count: 0, example });
    finding.count++;
  };
  const errorExamples = new Set<string>();
  let withoutRateLimitHeaders = 0;
  const observations: Observation[] = placed.map(({ atEpochMs, observation, latencyMs, retryAfterUnreadable }) => {
    const at = Number.isFinite(atEpochMs) ? atEpochMs - startedAtEpochMs : elapsedMs;
    const status = observation.status === 0 ? 'no answer' : String(observation.status);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    const headersMissing = observation.limit === undefined || observation.remaining === undefined || observation.reset === undefined;
    if (observation.status !== 0 && headersMissing) withoutRateLimitHeaders++;
    if (observation.outcome === 'admitted') latencyAdmitted.recordMs(latencyMs);
    if (observation.outcome === 'refused') {
      latencyRefused.recordMs(latencyMs);
      if (retryAfterUnreadable) note('RL-2', 'Retry-After is neither delta-seconds nor an HTTP-date');
      else if (observation.retryAfterMs === undefined) note('RL-1', '429 without a Retry-After header');
      if (headersMissing) note('RL-4', '429 response lacks an X-RateLimit header');
    }
    if (observation.error) errorExamples.add(observation.error);
    return { ...observation, intendedAt: at, sentAt: at, doneAt: at };
  });
  const count = (outcome: Observation['outcome']): number => observations.filter((o) => o.outcome === outcome).length;
  return {
    spec,
    perSecond: perSecond ?? undefined,
    observations,
    sent: observations.length,
    admitted: count('admitted'),
    refused: count('refused'),
    errors: count('error'),
    heldBack: 0,
    statusCounts,
    latency: { admitted: latencyAdmitted.summary(), refused: latencyRefused.summary() },
    refusalFindings,
    withoutRateLimitHeaders,
    errorExamples: [...errorExamples].slice(0, 5),
  };
}
