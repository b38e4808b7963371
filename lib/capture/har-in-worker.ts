/**
 * A large HAR's entries found by a worker thread (har-reading-worker.ts) while this thread parses and judges the
 * ones before: on two cores the scanning of the file's bytes is then off the judging thread. Each chunk's entries
 * come as their bytes, in order; the reader's errors come as they would from reading here (HarFormatError, or the
 * file system's error with its code). The worker is ended when the reading stops early.
 */
import { Worker } from 'node:worker_threads';
import { HarFormatError } from './entry-scanner.ts';
import type { EntryBytes, FromHarReader, HarReading } from './har-entry-bytes.ts';

/** `judgedFields`: where the judge's fields sit in each entry is found too (judged-field-index.ts). */
export async function* harEntryBytesInWorker(path: string, judgedFields = false): AsyncGenerator<EntryBytes> {
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./har-reading-worker.mjs', import.meta.url), { workerData: { path, judgedFields, taken } satisfies HarReading });
  const arrived: FromHarReader[] = [];
  let failure: Error | undefined;
  let notify: (() => void) | undefined;
  worker.on('message', (message: FromHarReader) => {
    arrived.push(message);
    notify?.();
  });
  worker.on('error', (error) => {
    failure = error;
    notify?.();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the HAR reading thread stopped (exit code ${code})`);
    notify?.();
  });
  try {
    for (;;) {
      const message = arrived.shift();
      if (message === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (notify = resolve));
        notify = undefined;
        continue;
      }
      if ('done' in message) return;
      if ('failed' in message) throw readingError(message.failed);
      Atomics.add(taken, 0, 1);
      Atomics.notify(taken, 0);
      yield message.entries;
    }
  } finally {
    await worker.terminate();
  }
}

function readingError({ format, message, code }: { format: boolean; message: string; code: string | undefined }): Error {
  if (format) return new HarFormatError(message);
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}
