/**
 * A large HAR's entries found by a worker thread (har-reading-worker.ts) while this thread parses and judges the
 * ones before: on two cores the scanning of the file's bytes is then off the judging thread. Each chunk's entries
 * come as their bytes, in order; the reader's errors come as they would from reading here (HarFormatError, or the
 * file system's error with its code). The worker is ended when the reading stops early.
 *
 * The reading may start before it is asked for (harEntryBytesInWorkerAhead): the command that will read the file starts it, then
 * loads its own code meanwhile.
 */
import { Worker } from 'node:worker_threads';
import { HarFormatError } from './entry-scanner.ts';
import type { EntryBytes, FromHarReader, HarReading } from './har-entry-bytes.ts';

class HarReadingThread {
  private readonly taken = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  private readonly arrived: FromHarReader[] = [];
  private failure: Error | undefined;
  private notify: (() => void) | undefined;

  constructor(
    readonly path: string,
    readonly judgedFields: boolean,
  ) {
    this.worker = new Worker(new URL('./har-reading-worker.mjs', import.meta.url), { workerData: { path, judgedFields, taken: this.taken } satisfies HarReading });
    // Listened to from the start: what the worker posts before the reading is asked for waits here.
    this.worker.on('message', (message: FromHarReader) => {
      this.arrived.push(message);
      this.notify?.();
    });
    this.worker.on('error', (error) => {
      this.failure = error;
      this.notify?.();
    });
    this.worker.on('exit', (code) => {
      this.failure ??= new Error(`the HAR reading thread stopped (exit code ${code})`);
      this.notify?.();
    });
  }

  /** Started ahead: the process may end (a usage error) without its reading being asked for. */
  unref(): void {
    this.worker.unref();
  }

  async *entries(): AsyncGenerator<EntryBytes> {
    this.worker.ref();
    try {
      for (;;) {
        const message = this.arrived.shift();
        if (message === undefined) {
          if (this.failure) throw this.failure;
          await new Promise<void>((resolve) => (this.notify = resolve));
          this.notify = undefined;
          continue;
        }
        if ('done' in message) return;
        if ('failed' in message) throw readingError(message.failed);
        Atomics.add(this.taken, 0, 1);
        Atomics.notify(this.taken, 0);
        yield message.entries;
      }
    } finally {
      await this.stop();
    }
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** The reading started ahead, until it is asked for. */
let ahead: HarReadingThread | undefined;

/** Starts reading `path` (absolute) for harEntryBytesInWorker with the same arguments, which takes it as it stands. */
export function harEntryBytesInWorkerAhead(path: string, judgedFields: boolean): void {
  void ahead?.stop();
  ahead = new HarReadingThread(path, judgedFields);
  ahead.unref();
}

/** `judgedFields`: where the judge's fields sit in each entry is found too (judged-field-index.ts). */
export async function* harEntryBytesInWorker(path: string, judgedFields = false): AsyncGenerator<EntryBytes> {
  const started = ahead;
  ahead = undefined;
  if (started && (started.path !== path || started.judgedFields !== judgedFields)) void started.stop();
  yield* (started?.path === path && started.judgedFields === judgedFields ? started : new HarReadingThread(path, judgedFields)).entries();
}

function readingError({ format, message, code }: { format: boolean; message: string; code: string | undefined }): Error {
  if (format) return new HarFormatError(message);
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}
