/**
 * One JSON line per request: time, method, path, status, plan and duration. The query string is left out
 * and any configured key that appears in the path is replaced by its variable's name, so no key is ever
 * written. Logging must not dominate throughput: lines are gathered and written at most every FLUSH_MS (or
 * once FLUSH_BYTES have gathered), since a write to a pipe or terminal is a system call that can cost more than
 * answering the request; the timestamp text is reused within a millisecond, and the redactor runs only on a
 * path that holds a key. shutdown calls flush(), so no line is lost on SIGTERM or SIGINT.
 */
import { Redactor } from '../lib/redact.ts';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';
import type { KeysByPlan } from '../lib/keys.ts';
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
export const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;

export function createRequestLog(
  mode: LogMode,
  keys: Readonly<KeysByPlan>,
  sink: LineSink = (text) => process.stdout.write(text),
  flushMs = FLUSH_MS,
): RequestLog {
  if (mode === 'off') return { record: () => {}, flush: () => {} };
  const redactor = new Redactor(keys);
  const allKeys = PLAN_IDS.flatMap((plan) => keys[plan]).filter((key) => key.length > 0);
  const holdsKey = allKeys.length === 0 ? undefined : new RegExp(allKeys.map(escapeRegExp).join('|'));
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  let clockMs = 0;
  let clockText = '';

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink(text);
  };

  const timestamp = (): string => {
    const now = Date.now();
    if (now !== clockMs) {
      clockMs = now;
      clockText = new Date(now).toISOString();
    }
    return clockText;
  };

  return {
    record({ method, path, status, plan, durationMs }) {
      const safe = holdsKey?.test(path) ? redactor.text(path) : path;
      const shown = safe.length > MAX_PATH ? `${safe.slice(0, MAX_PATH)}…` : safe;
      const duration = Math.round(durationMs * 1000) / 1000;
      pending += `{"time":"${timestamp()}","method":${JSON.stringify(method)},"path":${JSON.stringify(shown)},"status":${status},"plan":"${plan}","durationMs":${duration}}\n`;
      if (pending.length >= FLUSH_BYTES) flush();
      else if (!timer) timer = setTimeout(flush, flushMs).unref();
    },
    flush,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
