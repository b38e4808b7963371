/**
 * One request log line: time, method, path, status, plan and duration as JSON, in UTF-8. The query string
 * is left out and any configured key that appears in the path is replaced by its variable's name, so no key
 * is ever written; the redactor runs only on a path that holds a key.
 */
import { Redactor } from '../lib/redact.ts';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';
import type { KeysByPlan } from '../lib/keys.ts';
import type { LogBytes } from './log-bytes.ts';

export interface RequestRecord {
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  plan: PlanId | 'anonymous';
  durationMs: number;
}

/** Appends a record made at `time` (ms since the epoch) to `out` as one line ending in a newline. */
export type LineFormatter = (entry: RequestRecord, time: number, out: LogBytes) => void;

const MAX_PATH = 256;
/** Durations below this many microseconds, nearly all, have their bytes made once. */
const KEPT_DURATIONS = 10_000;

export function createLineFormatter(keys: Readonly<KeysByPlan>): LineFormatter {
  const redactor = new Redactor(keys);
  const allKeys = PLAN_IDS.flatMap((plan) => keys[plan]).filter((key) => key.length > 0);
  const holdsKey = allKeys.length === 0 ? undefined : new RegExp(allKeys.map(escapeRegExp).join('|'));
  // A line is its time, what was asked and answered, and how long that took, each kept as UTF-8 once made:
  // the time within a millisecond, the exchange while it repeats (from one request to the next of a busy
  // client), a duration for good. Copying three ready pieces costs far less than joining a line from its nine
  // parts as text and encoding it: about 170 against 700 ns a line, its write included.
  let clockMs = NaN;
  let timeBytes = Buffer.alloc(0);
  let last: Omit<RequestRecord, 'durationMs'> | undefined;
  let exchangeBytes = Buffer.alloc(0);
  const endBytes: Buffer[] = new Array(KEPT_DURATIONS);

  return (entry, time, out) => {
    if (time !== clockMs) {
      clockMs = time;
      timeBytes = Buffer.from(`{"time":"${new Date(time).toISOString()}"`);
    }
    const { method, path, status, plan } = entry;
    if (last === undefined || method !== last.method || path !== last.path || status !== last.status || plan !== last.plan) {
      last = { method, path, status, plan };
      const safe = holdsKey?.test(path) ? redactor.text(path) : path;
      const shown = safe.length > MAX_PATH ? `${safe.slice(0, MAX_PATH)}…` : safe;
      exchangeBytes = Buffer.from(`,"method":${JSON.stringify(method)},"path":${JSON.stringify(shown)},"status":${status},"plan":"${plan}","durationMs":`);
    }
    const micros = Math.round(entry.durationMs * 1000);
    out.append(timeBytes);
    out.append(exchangeBytes);
    out.append(micros >= 0 && micros < KEPT_DURATIONS ? (endBytes[micros] ??= lineEnd(micros)) : lineEnd(micros));
  };
}

/** The duration in milliseconds, to the microsecond, and what closes the line. */
function lineEnd(micros: number): Buffer {
  return Buffer.from(`${micros / 1000}}\n`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
