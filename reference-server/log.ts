/**
 * One JSON line per request: time, method, path, status, plan and duration. The query string is left out
 * and any configured key that appears in the path is replaced by its variable's name, so no key is ever
 * written. Lines are gathered and written once per turn of the event loop, so logging costs one write
 * per batch rather than one per request.
 */
import { Redactor } from '../lib/redact.ts';
import type { KeysByPlan } from '../lib/keys.ts';
import type { PlanId } from '../lib/plans.ts';
import type { LogMode } from './config.ts';

export interface RequestRecord {
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  plan: PlanId | 'anonymous';
  durationMs: number;
}

export interface RequestLog {
  record(entry: RequestRecord): void;
  /** Writes whatever is still gathered; called on shutdown. */
  flush(): void;
}

export type LineSink = (text: string) => void;

const MAX_PATH = 256;

export function createRequestLog(mode: LogMode, keys: Readonly<KeysByPlan>, sink: LineSink = (text) => process.stdout.write(text)): RequestLog {
  if (mode === 'off') return { record: () => {}, flush: () => {} };
  const redactor = new Redactor(keys);
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink(text);
  };
  return {
    record(entry) {
      const redacted = redactor.text(entry.path);
      const path = redacted.length > MAX_PATH ? `${redacted.slice(0, MAX_PATH)}…` : redacted;
      pending += `${JSON.stringify({
        time: new Date().toISOString(),
        method: entry.method,
        path,
        status: entry.status,
        plan: entry.plan,
        durationMs: Math.round(entry.durationMs * 1000) / 1000,
      })}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
