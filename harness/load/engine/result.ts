/**
 * The Locust engine's result, petstore-result.json, as locustfile.py's master writes it: every generator's
 * answers summed per key and per target window (X-RateLimit-Limit and -Reset), and the answers no window
 * holds (errors, missing or malformed headers) summed by status and headers. Times are Unix milliseconds of
 * the generator that saw them.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../input-error.ts';
import { keyCount, LOCUSTFILE, RESULT_FILE, type RunPlan } from './run-plan.ts';

export const RESULT_FORMAT = 'petstore-locust-result/3';

/** Answers of one kind: how many, when the first and last were sent and answered, and their statuses. */
export interface Phase {
  count: number;
  firstSent: number | null;
  lastSent: number | null;
  firstDone: number | null;
  lastDone: number | null;
  /** Answers to a request a compliant client sent after waiting out the Retry-After of a 429 (not its own backoff from one without). */
  retries: number;
  statuses: Record<string, number>;
}

/** Admitted answers also carry their X-RateLimit-Remaining values: runs [highest, lowest, times each]. */
export interface AdmittedPhase extends Phase {
  remaining: Array<[number, number, number]>;
  /** Answered more than the run plan's client.firmSlackMs before their Reset (absent from results of an earlier locustfile.py). */
  firm?: number;
}

/**
 * Refusals carry their Retry-After: "-" absent, "x:<text>" unreadable, else milliseconds (whole seconds); and
 * the X-RateLimit-Remaining each said, as runs (absent from results of an earlier locustfile.py).
 */
export interface RefusedPhase extends Phase {
  waits: Record<string, number>;
  remaining?: Array<[number, number, number]>;
}

export interface WindowTally {
  key: number;
  limit: number;
  reset: number;
  /** Admitted before the generator that saw them had been refused in this window. */
  admitted: AdmittedPhase;
  refused: RefusedPhase;
  /** Admitted after a refusal in this window on the same generator: requests aged out of it. */
  late: AdmittedPhase;
}

export interface LooseTally extends Phase {
  key: number;
  status: number;
  retry: boolean;
  wait: string;
  /** The X-RateLimit headers as sent (null: absent). */
  headers: { limit: string | null; remaining: string | null; reset: string | null };
}

/**
 * A key's latencies of one outcome (no answer and errors have none): how many answers took each bucket, a bucket
 * being whole microseconds cut to two significant digits (its low end: 1,234 µs is 1,200), lowest first.
 */
export interface LatencyTally {
  key: number;
  outcome: 'admitted' | 'refused';
  micros: Array<[number, number]>;
}

export interface EngineResult {
  format: string;
  /** The generators whose reports reached the master. */
  generators: string[];
  /** The workers whose last report (made once their users stopped) never reached the master: their last seconds are missing. */
  withoutLastReport?: string[];
  heldBack: Array<[number, number]>;
  windows: WindowTally[];
  loose: LooseTally[];
  latency: LatencyTally[];
}

export function readEngineResult(path: string, plan: RunPlan): EngineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new InputError(`cannot read the engine's result ${path} (${reason}): give the ${RESULT_FILE} Locust's master wrote beside ${LOCUSTFILE}`);
  }
  const result = raw as Partial<EngineResult>;
  if (result?.format !== RESULT_FORMAT || !Array.isArray(result.windows) || !Array.isArray(result.loose) || !Array.isArray(result.latency) || !Array.isArray(result.heldBack) || !Array.isArray(result.generators)) {
    throw new InputError(`${path} was not written by this version's locustfile.py (expected format ${RESULT_FORMAT}): export the test again`);
  }
  for (const entry of [...result.windows, ...result.loose, ...result.latency]) {
    if (!Number.isInteger(entry?.key) || entry.key < 0 || entry.key >= keyCount(plan)) {
      throw new InputError(`${path}: answers for key ${String(entry?.key)}, which ${plan.scenario} does not have: was the result made from another export?`);
    }
  }
  return result as EngineResult;
}
