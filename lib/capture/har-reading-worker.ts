/**
 * The worker thread's side of reading a large HAR beside the judging (har-in-worker.ts): it reads the file, finds
 * each entry's text (HarEntryScanner) and posts them a chunk at a time, staying at most AHEAD_BYTES ahead of
 * what the judging thread has taken, so memory stays that of a few chunks however large the file.
 */
import { open } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { HarEntryScanner, HarFormatError } from './entry-scanner.ts';
import { FINGERPRINT_BYTES, type EntryBytes, type FromHarReader, type HarReading, type JudgedFieldRecords } from './har-entry-bytes.ts';
import { JudgedFieldIndex } from './judged-field-index.ts';
import { readyForJudging } from './record-ready.ts';
import { sha1Into } from './fingerprint.ts';
import { RecurringBytes } from './recurring-strings.ts';
import { lowerThisThreadsPriority } from '../processes/thread-priority.ts';

/**
 * Bytes posted and not yet taken, at most (three whole chunks). Counted in bytes, not posts: while the judging thread
 * loads its code, this thread reads that far ahead, where three of its first, small chunks stopped it at 448 KB.
 */
const AHEAD_BYTES = 3 * (4 << 20);
/**
 * Larger than a reader on one thread uses: each chunk taken wakes this thread, and on a busy machine each wake-up
 * costs the judging thread about a millisecond.
 */
const CHUNK_BYTES = 4 << 20;
/**
 * The first chunk is small, and each after it twice the one before up to CHUNK_BYTES: the judging thread waits for the
 * first entries, which this thread's code, not yet compiled, walked at a tenth of its later speed (4 MB took 150 ms).
 */
const FIRST_CHUNK_BYTES = 64 << 10;

const WAKE_AT_LEAST_EVERY_MS = 100;

/**
 * This thread reads ahead, up to AHEAD_BYTES, while the judging thread is the one the command waits for. Where they
 * share a busy core, the judging thread goes first: on two cores, with V8's own threads beside them, the bench's judge
 * took 2.27 s rather than 2.40 (medians of six alternating rounds; 10 steps did no better). No more: on a machine busy
 * with other processes this thread must still keep ahead.
 */
const READING_YIELDS = 5;

const port = parentPort ?? process.exit(1);
lowerThisThreadsPriority(READING_YIELDS);
/** The sizes of the posts not yet taken, oldest first; `taken` (Atomics) counts the posts the judging thread took. */
const untaken: number[] = [];
let postsTaken = 0;
let bytesAhead = 0;

async function read({ path, judgedFields, taken }: HarReading): Promise<void> {
  const fields = judgedFields ? new FieldRecords() : undefined;
  const scanner = new HarEntryScanner(fields?.walker);
  const file = await open(path, 'r');
  try {
    for (let size = FIRST_CHUNK_BYTES; ; size = Math.min(2 * size, CHUNK_BYTES)) {
      // Its own memory (not the pool's), as the chunk is handed over to the judging thread with the entries in it.
      const chunk = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer);
      const { bytesRead } = await file.read(chunk, 0, size, null);
      if (bytesRead === 0) break;
      const bytes = bytesRead === size ? chunk : chunk.subarray(0, bytesRead);
      // An entry that straddled chunks (the first, if any) is joined from its pieces; the others are posted in the chunk.
      const found = scanner.pushBytes(bytes);
      const straddling = found.length > 0 && !readIn(bytes, found[0] as Uint8Array[]) ? found.shift() : undefined;
      if (straddling) post(fields, joined(straddling), true);
      if (found.length > 0) post(fields, inPlace(bytes, found), false);
      // This thread has nothing else to do meanwhile: it sleeps until a chunk is taken, waking now and then so that an
      // end of the reading asked by the judging thread (terminate) is seen.
      for (let seen = Atomics.load(taken, 0); aheadBytes(seen) >= AHEAD_BYTES; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen, WAKE_AT_LEAST_EVERY_MS);
    }
  } finally {
    await file.close();
  }
  scanner.end();
}

function post(fields: FieldRecords | undefined, entries: EntryBytes, joined: boolean): void {
  const transfer = [entries.bytes.buffer, entries.starts.buffer, entries.ends.buffer, entries.fingerprints.buffer];
  if (fields) {
    entries.judgedFields = fields.take(entries, joined);
    transfer.push(entries.judgedFields.at.buffer, entries.judgedFields.records.buffer);
  }
  port.postMessage({ entries } satisfies FromHarReader, transfer);
  untaken.push(entries.bytes.length);
  bytesAhead += entries.bytes.length;
}

/** Bytes posted and not yet taken, given how many posts were taken. */
function aheadBytes(takenPosts: number): number {
  for (; postsTaken < takenPosts; postsTaken++) bytesAhead -= untaken.shift() as number;
  return bytesAhead;
}

/** Whether the entry is all in `chunk`: one piece, a view of it. */
function readIn(chunk: Uint8Array, pieces: readonly Uint8Array[]): boolean {
  return pieces.length === 1 && pieces[0]?.buffer === chunk.buffer;
}

/** Entries all in `chunk`: posted with it rather than copied out of it (copying them cost this thread an eighth of its time). */
function inPlace(chunk: Uint8Array<ArrayBuffer>, entries: readonly Uint8Array[][]): EntryBytes {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const pieces of entries) {
    if (!readIn(chunk, pieces)) throw new Error('an entry that straddled chunks came after the first of a chunk');
    const piece = pieces[0] as Uint8Array;
    starts.push(piece.byteOffset - chunk.byteOffset);
    ends.push(piece.byteOffset - chunk.byteOffset + piece.length);
  }
  return entryBytes(chunk, starts, ends);
}

function joined(pieces: readonly Uint8Array[]): EntryBytes {
  const bytes = new Uint8Array(pieces.reduce((length, piece) => length + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return entryBytes(bytes, [0], [bytes.length]);
}

function entryBytes(bytes: Uint8Array<ArrayBuffer>, starts: readonly number[], ends: readonly number[]): EntryBytes {
  const fingerprints = new Uint8Array(starts.length * FINGERPRINT_BYTES);
  for (let index = 0; index < starts.length; index++) sha1Into(bytes.subarray(starts[index], ends[index]), fingerprints, index * FINGERPRINT_BYTES);
  return { bytes, starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), fingerprints };
}

/**
 * Where the judge's fields sit in each entry: found by the walk that finds the entry's end in the chunk read (one pass
 * over its bytes), or, for an entry that straddles chunks, in its bytes once joined.
 */
class FieldRecords {
  private readonly index = new JudgedFieldIndex();
  /**
   * For an entry that straddled chunks, posted on its own: by the time it is whole, the walk has indexed the entries
   * after it in `index`, whose records go with the chunk posted next.
   */
  private readonly joinedIndex = new JudgedFieldIndex();
  /** In step with the judging thread's RecurringStrings: the records go there in the order they are placed here. */
  private readonly recurring = new RecurringBytes();
  /** Per entry walked and not yet taken, in order: its record, or -1 where the walk left it to the scanner. */
  private readonly walked: number[] = [];

  readonly walker = (chunk: Uint8Array, start: number): number => {
    const record = this.index.add(chunk, start, chunk.length, true);
    this.walked.push(record);
    return record === -1 ? -1 : this.index.entryEnd;
  };

  /**
   * The records of the entries posted together, their offsets in `entries.bytes`, their recurring texts placed entry
   * by entry; `joined`: one that straddled chunks.
   */
  take({ bytes, starts, ends }: EntryBytes, joined: boolean): JudgedFieldRecords {
    const index = joined ? this.joinedIndex : this.index;
    const at = new Int32Array(ends.length);
    for (let entry = 0; entry < ends.length; entry++) {
      at[entry] = this.walked[entry] ?? -1;
      if (at[entry] === -1) at[entry] = index.add(bytes, starts[entry] as number, ends[entry] as number);
    }
    const records = index.take();
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let entry = 0; entry < ends.length; entry++) {
      const record = at[entry] as number;
      if (record === -1) continue;
      readyForJudging(records, record, starts[entry] as number, buffer, this.recurring);
    }
    this.walked.splice(0, ends.length);
    return { at, records };
  }
}

read(workerData as HarReading).then(
  () => port.postMessage({ done: true } satisfies FromHarReader),
  (error: unknown) => port.postMessage({ failed: { format: error instanceof HarFormatError, message: (error as Error).message, code: (error as NodeJS.ErrnoException).code } } satisfies FromHarReader),
);
