/**
 * The text of one request log line: time, method, path, status, plan and duration as JSON. The query string
 * is left out and any configured key that appears in the path is replaced by its variable's name, so no key
 * is ever written; the redactor runs only on a path that holds a key, and the timestamp text is reused
 * within a millisecond.
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

export function createLineFormatter(keys: Readonly<KeysByPlan>): LineFormatter {
  const redactor = new Redactor(keys);
  const allKeys = PLAN_IDS.flatMap((plan) => keys[plan]).filter((key) => key.length > 0);
  const holdsKey = allKeys.length === 0 ? undefined : new RegExp(allKeys.map(escapeRegExp).join('|'));
  let clockMs = 0;
  let clockText = '';

  return ({ method, path, status, plan, durationMs }, time) => {
    if (time !== clockMs) {
      clockMs = time;
      clockText = new Date(time).toISOString();
    }
    const safe = holdsKey?.test(path) ? redactor.text(path) : path;
    const shown = safe.length > MAX_PATH ? `${safe.slice(0, MAX_PATH)}…` : safe;
    const duration = Math.round(durationMs * 1000) / 1000;
    return `{"time":"${clockText}","method":${JSON.stringify(method)},"path":${JSON.stringify(shown)},"status":${status},"plan":"${plan}","durationMs":${duration}}\n`;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
