/**
 * A key's answers (the built-in engine's record of them) as one Locust generator would have had them summed
 * (locustfile.py: Seen in the worker, Sums in the master): per window (Limit and Reset), admissions before and after
 * this generator's own refusal in it (with how many came back more than `firmSlackMs` before their Reset), and refusals with the Retry-After each asked (whole seconds) and the Remaining
 * each said; the answers no window holds by status and headers; and latencies per outcome, bucketed as the master does. So a property can judge one run's answers through
 * the Locust path too (runFromResult), with the same answers changed the same way.
 *
 * An answer's record keeps what its headers said as numbers only: a header present but unreadable is taken as
 * absent, and a Retry-After that could not be read as no Retry-After.
 */
import type { Observation } from '../../../harness/load/observation.ts';
import { RUN_SLACK_MS } from '../../../lib/rate-limiter/account.ts';
import { decidedAfter } from '../../../lib/rate-limiter/order.ts';
import type { AdmittedPhase, LatencyTally, LooseTally, Phase, RefusedPhase, WindowTally } from '../../../harness/load/engine/result.ts';

export interface SummedAnswers {
  windows: WindowTally[];
  loose: LooseTally[];
  latency: LatencyTally[];
}

/** `key`: the key's index in the run plan; times are read as ms since `startedAtEpochMs`. */
export function sumsOfAnswers(observations: readonly Observation[], startedAtEpochMs: number, key = 0, firmSlackMs = RUN_SLACK_MS): SummedAnswers {
  const windows = new Map<string, { tally: WindowTally; said: Map<Phase, number[]> }>();
  const loose = new Map<string, LooseTally>();
  const refusedAt = new Map<string, number>();
  const latency = new Map<'admitted' | 'refused', Map<number, number>>();
  // A generator records each answer as it comes back.
  for (const o of [...observations].sort((a, b) => a.doneAt - b.doneAt)) {
    const sent = startedAtEpochMs + o.sentAt;
    const done = startedAtEpochMs + o.doneAt;
    const wait = o.status === 429 ? waitOf(o.retryAfterMs) : '-';
    if (o.outcome !== 'error') {
      const buckets = latency.get(o.outcome) ?? new Map<number, number>();
      latency.set(o.outcome, buckets);
      buckets.set(latencyBucket(sent, done), (buckets.get(latencyBucket(sent, done)) ?? 0) + 1);
    }
    if (o.outcome === 'error' || o.limit === undefined || o.remaining === undefined || o.reset === undefined || (o.outcome === 'refused' && o.remaining > o.limit)) {
      const header = (value: number | undefined): string | null => (value === undefined ? null : String(value));
      const headers = { limit: header(o.limit), remaining: header(o.remaining), reset: header(o.reset) };
      const where = JSON.stringify([o.status, shippedAsRetry(o), wait, headers]);
      const entry = loose.get(where) ?? { key, status: o.status, retry: shippedAsRetry(o), wait, headers, ...noAnswers() };
      loose.set(where, entry);
      add(entry, sent, done, o);
      continue;
    }
    const where = `${o.limit}|${o.reset}`;
    const tally: WindowTally = { key, limit: o.limit, reset: o.reset, admitted: { ...noAnswers(), remaining: [], firm: 0 }, refused: { ...noAnswers(), waits: {}, remaining: [] }, late: { ...noAnswers(), remaining: [], firm: 0 } };
    const window = windows.get(where) ?? { tally, said: new Map<Phase, number[]>() };
    windows.set(where, window);
    let phase: AdmittedPhase | RefusedPhase;
    if (o.outcome === 'refused') {
      refusedAt.set(where, Math.min(done, refusedAt.get(where) ?? Infinity));
      phase = window.tally.refused;
      window.tally.refused.waits[wait] = (window.tally.refused.waits[wait] ?? 0) + 1;
    } else {
      const refused = refusedAt.get(where);
      phase = refused !== undefined && decidedAfter({ receivedAt: refused }, { sentAt: sent }, 0) === 'after' ? window.tally.late : window.tally.admitted;
    }
    add(phase, sent, done, o);
    if (o.outcome === 'admitted' && done < o.reset * 1000 - firmSlackMs) (phase as AdmittedPhase).firm! += 1;
    window.said.set(phase, [...(window.said.get(phase) ?? []), o.remaining]);
  }
  for (const { said } of windows.values()) for (const [phase, values] of said) (phase as AdmittedPhase).remaining = runsOf(values);
  const latencies = (['admitted', 'refused'] as const).flatMap((outcome) => {
    const buckets = latency.get(outcome);
    return buckets ? [{ key, outcome, micros: [...buckets].sort(([a], [b]) => a - b) }] : [];
  });
  return { windows: [...windows.values()].map(({ tally }) => tally), loose: [...loose.values()], latency: latencies };
}

/** Retry-After as the generators read it: "-" absent (or unreadable, here), else the wait in whole seconds, in ms. */
/** As locustfile.py marks it: a retry is a request sent after waiting a 429's Retry-After, not the client's own backoff. */
export function shippedAsRetry(o: Observation): boolean {
  return o.retry?.retryAfterMs !== undefined;
}

function waitOf(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined ? '-' : String(Math.round(retryAfterMs / 1000) * 1000);
}

function noAnswers(): Phase {
  return { count: 0, firstSent: null, lastSent: null, firstDone: null, lastDone: null, retries: 0, statuses: {} };
}

/** An answer's latency as the master buckets it: whole microseconds cut to two significant digits. */
function latencyBucket(sent: number, done: number): number {
  let [micros, scale] = [Math.max(0, Math.floor((done - sent) * 1000)), 1];
  while (micros >= 100) {
    micros = Math.floor(micros / 10);
    scale *= 10;
  }
  return micros * scale;
}

function add(phase: Phase, sent: number, done: number, o: Observation): void {
  phase.count += 1;
  phase.firstSent = Math.min(phase.firstSent ?? sent, sent);
  phase.lastSent = Math.max(phase.lastSent ?? sent, sent);
  phase.firstDone = Math.min(phase.firstDone ?? done, done);
  phase.lastDone = Math.max(phase.lastDone ?? done, done);
  phase.retries += shippedAsRetry(o) ? 1 : 0;
  phase.statuses[String(o.status)] = (phase.statuses[String(o.status)] ?? 0) + 1;
}

/** Values as runs [highest, lowest, times], highest first: consecutive values seen equally often are one run. */
function runsOf(values: readonly number[]): Array<[number, number, number]> {
  const times = new Map<number, number>();
  for (const value of values) times.set(value, (times.get(value) ?? 0) + 1);
  const runs: Array<[number, number, number]> = [];
  for (const value of [...times.keys()].sort((a, b) => b - a)) {
    const last = runs.at(-1);
    if (last && last[1] === value + 1 && last[2] === times.get(value)) last[1] = value;
    else runs.push([value, value, times.get(value)!]);
  }
  return runs;
}
