/**
 * The request log: one JSON line per request (log-line.ts), on stdout unless told otherwise. Logging must not
 * dominate throughput, so a request only sets its record aside; the lines are formatted and written together
 * at most every FLUSH_MS, or once MAX_PENDING records have gathered. Formatting a thousand lines in one go
 * costs a third of formatting each between two requests (its code and data stay in the CPU's caches), and a
 * write to a pipe or terminal is a system call that can cost more than answering the request. shutdown calls
 * flush(), so no line is lost on SIGTERM or SIGINT.
 */
import type { KeysByPlan } from '../lib/keys.ts';
import type { LogMode } from './config.ts';
import { createLineFormatter, type RequestRecord } from './log-line.ts';

export interface RequestLog {
  record(entry: RequestRecord): void;
  /** Writes whatever is still gathered; called on shutdown. */
  flush(): void;
}

export type LineSink = (text: string) => void;

export const FLUSH_MS = 100;
/** Bounds the memory records wait in, as a path is kept whole until its line is formatted. */
const MAX_PENDING = 1024;

export function createRequestLog(
  mode: LogMode,
  keys: Readonly<KeysByPlan>,
  sink: LineSink = (text) => process.stdout.write(text),
  flushMs = FLUSH_MS,
): RequestLog {
  if (mode === 'off') return { record: () => {}, flush: () => {} };
  const format = createLineFormatter(keys);
  const pending: Array<readonly [RequestRecord, number]> = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.map(([entry, time]) => format(entry, time)).join('');
    pending.length = 0;
    sink(text);
  };

  return {
    record(entry) {
      pending.push([entry, Date.now()]);
      if (pending.length >= MAX_PENDING) flush();
      else timer ??= setTimeout(flush, flushMs).unref();
    },
    flush,
  };
}
