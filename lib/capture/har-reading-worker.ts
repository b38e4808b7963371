/**
 * The worker thread's side of reading a large HAR beside the judging (har-in-worker.ts): it reads the file, finds
 * each entry's text (HarEntryScanner) and posts them a chunk at a time, staying at most AHEAD chunks ahead of
 * what the judging thread has taken, so memory stays that of a few chunks however large the file.
 */
import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { HarEntryScanner, HarFormatError } from './entry-scanner.ts';
import { FINGERPRINT_BYTES, type EntryBytes, type FromHarReader } from './har-entry-bytes.ts';

/** Chunks posted and not yet taken, at most. */
const AHEAD = 3;
/**
 * Larger than a reader on one thread uses: each chunk taken wakes this thread, and on a busy machine each wake-up
 * costs the judging thread about a millisecond.
 */
const CHUNK_BYTES = 4 << 20;

const port = parentPort ?? process.exit(1);
let taken = 0;
let posted = 0;
let wake: (() => void) | undefined;
port.on('message', () => {
  taken++;
  wake?.();
});

async function read(path: string): Promise<void> {
  const scanner = new HarEntryScanner();
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    const entries = joined(scanner.pushBytes(chunk as Buffer));
    port.postMessage({ entries } satisfies FromHarReader, [entries.bytes.buffer, entries.fingerprints.buffer]);
    posted++;
    while (posted - taken >= AHEAD) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  scanner.end();
}

function joined(entries: readonly Uint8Array[][]): EntryBytes {
  const ends = new Uint32Array(entries.length);
  let length = 0;
  for (let index = 0; index < entries.length; index++) {
    for (const piece of entries[index] ?? []) length += piece.length;
    ends[index] = length;
  }
  const bytes = new Uint8Array(length);
  const fingerprints = new Uint8Array(entries.length * FINGERPRINT_BYTES);
  let at = 0;
  for (let index = 0; index < entries.length; index++) {
    const start = at;
    for (const piece of entries[index] ?? []) {
      bytes.set(piece, at);
      at += piece.length;
    }
    fingerprints.set(hash('sha1', bytes.subarray(start, at), 'buffer'), index * FINGERPRINT_BYTES);
  }
  return { bytes, ends, fingerprints };
}

read(workerData as string).then(
  () => port.postMessage({ done: true } satisfies FromHarReader),
  (error: unknown) => port.postMessage({ failed: { format: error instanceof HarFormatError, message: (error as Error).message, code: (error as NodeJS.ErrnoException).code } } satisfies FromHarReader),
);
