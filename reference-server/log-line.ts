/**
 * The text of one request log line: time, method, path, status, plan and duration as JSON. The query string
 * is left out and any configured key that appears in the path is replaced by its variable's name, so no key
 * is ever written; the redactor runs only on a path that holds a key.
 */
import { Redactor } from '../lib/redact.ts';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';
import type { KeysByPlan } from '../lib/keys.ts';

export interface RequestRecord {
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  plan: PlanId | 'anonymous';
  durationMs: number;
}

/** A record and when it was made, in milliseconds since the epoch, as one line ending in a newline. */
export type LineFormatter = (entry: RequestRecord, time: number) => string;

const MAX_PATH = 256;
/** Durations below this many microseconds, nearly all, have their text made once. */
const KEPT_DURATIONS = 10_000;

export function createLineFormatter(keys: Readonly<KeysByPlan>): LineFormatter {
  const redactor = new Redactor(keys);
  const allKeys = PLAN_IDS.flatMap((plan) => keys[plan]).filter((key) => key.length > 0);
  const holdsKey = allKeys.length === 0 ? undefined : new RegExp(allKeys.map(escapeRegExp).join('|'));
  // A line is its time, what was asked and answered, and how long that took, each kept as text once made:
  // the time within a millisecond, the exchange while it repeats (from one request to the next of a busy
  // client), a duration for good. Joining three ready pieces costs a third of building a line from its nine.
  let clockMs = NaN;
  let timeText = '';
  let last: Omit<RequestRecord, 'durationMs'> | undefined;
  let exchangeText = '';
  const endTexts: string[] = new Array(KEPT_DURATIONS);

  return (entry, time) => {
    if (time !== clockMs) {
      clockMs = time;
      timeText = `{"time":"${new Date(time).toISOString()}"`;
    }
    const { method, path, status, plan } = entry;
    if (last === undefined || method !== last.method || path !== last.path || status !== last.status || plan !== last.plan) {
      last = { method, path, status, plan };
      const safe = holdsKey?.test(path) ? redactor.text(path) : path;
      const shown = safe.length > MAX_PATH ? `${safe.slice(0, MAX_PATH)}…` : safe;
      exchangeText = `,"method":${JSON.stringify(method)},"path":${JSON.stringify(shown)},"status":${status},"plan":"${plan}","durationMs":`;
    }
    const micros = Math.round(entry.durationMs * 1000);
    const end = micros >= 0 && micros < KEPT_DURATIONS ? (endTexts[micros] ??= lineEnd(micros)) : lineEnd(micros);
    return `${timeText}${exchangeText}${end}`;
  };
}

/** The duration in milliseconds, to the microsecond, and what closes the line. */
function lineEnd(micros: number): string {
  return `${micros / 1000}}\n`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
