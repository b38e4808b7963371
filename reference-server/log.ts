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
import { LogBytes } from './log-bytes.ts';
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
  sink?: LineSink,
  flushMs = FLUSH_MS,
): RequestLog {
  if (mode === 'off') return { record: () => {}, flush: () => {} };
  const format = createLineFormatter(keys);
  const write = sink ? (bytes: Buffer) => sink(bytes.toString()) : (bytes: Buffer) => process.stdout.write(bytes);
  const lines = new LogBytes();
  // Records wait in columns, not as objects: an object kept until the flush outlives the young generation and
  // is copied by each collection, while the numbers here are never allocated and the request's object dies young.
  const methods: string[] = new Array(MAX_PENDING);
  const paths: string[] = new Array(MAX_PENDING);
  const plans: RequestRecord['plan'][] = new Array(MAX_PENDING);
  const numbers = new Float64Array(MAX_PENDING * 3);
  let count = 0;
  let lastPath = '';
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    for (let index = 0; index < count; index++) {
      const at = index * 3;
      format({ method: methods[index]!, path: paths[index]!, plan: plans[index]!, status: numbers[at]!, durationMs: numbers[at + 1]! }, numbers[at + 2]!, lines);
    }
    count = 0;
    if (lines.length > 0) write(lines.take());
  };

  return {
    record(entry) {
      const at = count * 3;
      methods[count] = entry.method;
      // A path equal to the last one is kept as that string, not the request's copy: the copies die young
      // instead of each outliving a collection, and the flush knows a repeated path by identity, unread.
      if (entry.path !== lastPath) lastPath = entry.path;
      paths[count] = lastPath;
      plans[count] = entry.plan;
      numbers[at] = entry.status;
      numbers[at + 1] = entry.durationMs;
      numbers[at + 2] = Date.now();
      if (++count >= MAX_PENDING) flush();
      else timer ??= setTimeout(flush, flushMs).unref();
    },
    flush,
  };
}
