/**
 * The worker thread's side of reading a large HAR beside the judging (har-in-worker.ts): it reads the file, finds
 * each entry's text (HarEntryScanner) and posts them a chunk at a time, staying at most AHEAD chunks ahead of
 * what the judging thread has taken, so memory stays that of a few chunks however large the file.
 */
import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { HarEntryScanner, HarFormatError } from './entry-scanner.ts';
import { FINGERPRINT_BYTES, type EntryBytes, type FromHarReader, type HarReading, type JudgedFieldRecords } from './har-entry-bytes.ts';
import { JudgedFieldIndex, placeRecurring, rebase } from './judged-field-index.ts';
import { RecurringBytes } from './recurring-strings.ts';

/** Chunks posted and not yet taken, at most. */
const AHEAD = 3;
/**
 * Larger than a reader on one thread uses: each chunk taken wakes this thread, and on a busy machine each wake-up
 * costs the judging thread about a millisecond.
 */
const CHUNK_BYTES = 4 << 20;

const WAKE_AT_LEAST_EVERY_MS = 100;

const port = parentPort ?? process.exit(1);
let posted = 0;

async function read({ path, judgedFields, taken }: HarReading): Promise<void> {
  const fields = judgedFields ? new FieldRecords() : undefined;
  const scanner = new HarEntryScanner(fields?.walker);
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    // A plain view of the Buffer: the walk then reads one kind of array, chunk and joined bytes alike.
    const bytes = chunk as Buffer;
    const entries = joined(scanner.pushBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)));
    const transfer = [entries.bytes.buffer, entries.fingerprints.buffer];
    if (fields) {
      entries.judgedFields = fields.take(entries);
      transfer.push(entries.judgedFields.at.buffer, entries.judgedFields.records.buffer);
    }
    port.postMessage({ entries } satisfies FromHarReader, transfer);
    posted++;
    // This thread has nothing else to do meanwhile: it sleeps until a chunk is taken, waking now and then so that an
    // end of the reading asked by the judging thread (terminate) is seen.
    for (let seen = Atomics.load(taken, 0); posted - seen >= AHEAD; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen, WAKE_AT_LEAST_EVERY_MS);
  }
  scanner.end();
}

/**
 * Where the judge's fields sit in each entry: found by the walk that finds the entry's end in the chunk read (one pass
 * over its bytes), or, for an entry that straddles chunks, in its bytes once joined.
 */
class FieldRecords {
  private readonly index = new JudgedFieldIndex();
  /** In step with the judging thread's RecurringStrings: the records go there in the order they are placed here. */
  private readonly recurring = new RecurringBytes();
  /** Per entry walked and not yet taken, in order: its record, or -1 where the walk left it to the scanner. */
  private readonly walked: number[] = [];

  readonly walker = (chunk: Uint8Array, start: number): number => {
    const record = this.index.add(chunk, start, chunk.length, true);
    this.walked.push(record);
    return record === -1 ? -1 : this.index.entryEnd;
  };

  /** The records of a chunk's entries, their offsets in `entries.bytes`, their recurring texts placed entry by entry. */
  take({ bytes, ends }: EntryBytes): JudgedFieldRecords {
    const at = new Int32Array(ends.length);
    for (let entry = 0; entry < ends.length; entry++) {
      const start = entry === 0 ? 0 : (ends[entry - 1] as number);
      at[entry] = this.walked[entry] ?? -1;
      if (at[entry] === -1) at[entry] = this.index.add(bytes, start, ends[entry] as number);
    }
    const records = this.index.take();
    for (let entry = 0; entry < ends.length; entry++) {
      const record = at[entry] as number;
      if (record === -1) continue;
      rebase(records, record, entry === 0 ? 0 : (ends[entry - 1] as number));
      placeRecurring(records, record, bytes, this.recurring);
    }
    this.walked.splice(0, ends.length);
    return { at, records };
  }
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

read(workerData as HarReading).then(
  () => port.postMessage({ done: true } satisfies FromHarReader),
  (error: unknown) => port.postMessage({ failed: { format: error instanceof HarFormatError, message: (error as Error).message, code: (error as NodeJS.ErrnoException).code } } satisfies FromHarReader),
);
