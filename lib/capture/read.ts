/**
 * Reads a capture one entry at a time, in either of the two formats the harness accepts:
 * - `.har`: one HAR 1.2 JSON document (what browsers, Playwright and the recorder write), streamed;
 * - `.har.ndjson` / `.ndjson` / `.jsonl`: one entry per line (a HAR entry, or an exchange for the judge), for captures
 *   too large to want one JSON document.
 * Either way memory stays that of one entry, however long the capture. A capture holding no entry is bad input in
 * both: nothing in it can be judged or replayed, and the file is more likely the wrong one (a log just rotated).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { HarEntryScanner, HarFormatError } from './entry-scanner.ts';
import { FINGERPRINT_BYTES, type EntryBytes } from './har-entry-bytes.ts';
import { harEntryBytesInWorker } from './har-in-worker.ts';
import { judgedHarEntry, type JudgedHarEntry } from './judged-fields.ts';
import { RecurringStrings } from './recurring-strings.ts';

export type CaptureFormat = 'har' | 'ndjson';

export class CaptureInputError extends Error {
  override name = 'CaptureInputError';
}

export function captureFormat(path: string): CaptureFormat {
  return /\.(ndjson|jsonl)$/i.test(path) ? 'ndjson' : 'har';
}

export interface RawEntry {
  /** 1-based position in the capture. */
  number: number;
  entry: unknown;
}

/**
 * An entry as read from a file, with what tells a line written twice: the SHA-1 the reader took of its bytes as written,
 * or else its text as written.
 */
export type ReadEntry = RawEntry & (Fingerprinted | WithText);

/**
 * FINGERPRINT_BYTES from `fingerprintAt` in `fingerprints` (shared by the entries of a chunk read, so no string or
 * array is made per entry). An entry read for its judged fields alone has no text: the reading thread decoded its
 * judged strings in its own bytes (strings-decoded-in-place.ts), once it had taken the SHA-1 that stands for it.
 */
interface Fingerprinted {
  fingerprints: Uint8Array;
  fingerprintAt: number;
  text?: string;
}

interface WithText {
  fingerprints: undefined;
  text: string;
}

const CHUNK_BYTES = 1 << 20;

/**
 * From this size on, a HAR's entries are found by a worker thread while this one parses and judges (har-in-worker.ts):
 * starting the thread costs about a fifth of a second, which a small capture would not win back.
 */
export const HAR_IN_WORKER_BYTES = 32 << 20;

/**
 * What of each entry is wanted: all of it, or only the fields the judge reads (JudgedHarEntry), which a HAR read on
 * a worker thread gives without decoding and parsing the whole entry. Either way an entry of another shape is whole.
 */
export type EntryFields = 'whole' | 'judged';

/**
 * Every entry of the capture, parsed as plain JSON (bodies are strings in HAR, so no number is rounded).
 * `harInWorkerFrom`: the size in bytes from which a HAR's entries are found on a worker thread.
 */
export async function* readCapture(path: string, format: CaptureFormat = captureFormat(path), harInWorkerFrom = HAR_IN_WORKER_BYTES, fields: EntryFields = 'whole'): AsyncGenerator<ReadEntry> {
  for await (const entries of readCaptureInChunks(path, format, harInWorkerFrom, fields)) yield* entries;
}

/**
 * The entries of readCapture a chunk read at a time: each chunk's entries are read as they are taken, without an await
 * each (those cost the judge 2% of its thread on a large capture). Take each chunk's entries before the next chunk.
 */
export async function* readCaptureInChunks(path: string, format: CaptureFormat = captureFormat(path), harInWorkerFrom = HAR_IN_WORKER_BYTES, fields: EntryFields = 'whole'): AsyncGenerator<Iterable<ReadEntry>> {
  const name = basename(path);
  const batches = format === 'ndjson' ? ndjsonEntries(path) : harEntries(path, harInWorkerFrom, fields);
  let entries = 0;
  try {
    // A batch per chunk read: one await per megabyte rather than two per entry.
    for await (const batch of batches) {
      entries += batch.size;
      yield entriesOf(batch, name);
    }
  } catch (error) {
    if (error instanceof HarFormatError) throw new CaptureInputError(`${name}: malformed HAR: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CaptureInputError(`${path}: no such file`);
    if (code === 'EISDIR') throw new CaptureInputError(`${path}: is a directory, expected a .har or .har.ndjson file`);
    if (code === 'EACCES') throw new CaptureInputError(`${path}: permission denied`);
    throw error;
  }
  if (entries === 0) throw new CaptureInputError(`${name}: the capture holds no entries (${format === 'ndjson' ? 'expected one per line: a HAR entry or an exchange' : 'its log.entries is empty'})`);
}

function* entriesOf(batch: Batch, name: string): Generator<ReadEntry> {
  for (let index = 0; index < batch.size; index++) {
    const judged = batch.judged?.(index);
    // Only a worker's batch (EntryBytesBatch) finds judged fields, and it takes every entry's SHA-1.
    if (judged && batch.fingerprints) {
      yield { number: batch.number(index), entry: judged, fingerprints: batch.fingerprints, fingerprintAt: index * FINGERPRINT_BYTES };
      continue;
    }
    const text = batch.text(index);
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      throw new CaptureInputError(`${name}: ${batch.where(index)} is not valid JSON (${(error as Error).message})`);
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new CaptureInputError(`${name}: ${batch.where(index)} is not a JSON object`);
    const number = batch.number(index);
    yield batch.fingerprints ? { number, entry, text, fingerprints: batch.fingerprints, fingerprintAt: index * FINGERPRINT_BYTES } : { number, entry, text, fingerprints: undefined };
  }
}

/** The entries of one chunk read. */
interface Batch {
  readonly size: number;
  /** 1-based position in the capture. */
  number(index: number): number;
  /** Where the entry is, for messages: "entry 3" in a HAR document, "line 17" in NDJSON. */
  where(index: number): string;
  text(index: number): string;
  /** Each entry's SHA-1 of its bytes, FINGERPRINT_BYTES each in order, if the reader took them. */
  readonly fingerprints: Uint8Array | undefined;
  /** The entry's judged fields, where the reader found where they sit; else it is to be parsed whole. */
  judged?(index: number): JudgedHarEntry | undefined;
}

class TextBatch implements Batch {
  constructor(
    private readonly texts: readonly string[],
    private readonly first: number,
  ) {}

  get size(): number {
    return this.texts.length;
  }

  number(index: number): number {
    return this.first + index;
  }

  where(index: number): string {
    return `entry ${this.number(index)}`;
  }

  text(index: number): string {
    return this.texts[index] ?? '';
  }

  readonly fingerprints = undefined;
}

/** A HAR's entries as a worker thread found them: decoded one by one as their turn comes, as LineBatch does. */
class EntryBytesBatch implements Batch {
  private readonly bytes: Buffer;
  readonly fingerprints: Uint8Array;

  constructor(
    private readonly entries: EntryBytes,
    private readonly first: number,
    /** The reading's recurring strings, in step with the worker's as long as each entry's judged() is asked, in order. */
    private readonly recurring: RecurringStrings,
  ) {
    this.bytes = Buffer.from(entries.bytes.buffer, entries.bytes.byteOffset, entries.bytes.length);
    this.fingerprints = entries.fingerprints;
  }

  get size(): number {
    return this.entries.ends.length;
  }

  number(index: number): number {
    return this.first + index;
  }

  where(index: number): string {
    return `entry ${this.number(index)}`;
  }

  text(index: number): string {
    return this.bytes.toString('utf8', this.entries.starts[index], this.entries.ends[index]);
  }

  judged(index: number): JudgedHarEntry | undefined {
    this.recurring.inTurn(this.number(index));
    const fields = this.entries.judgedFields;
    const record = fields?.at[index] ?? -1;
    return fields && record !== -1 ? judgedHarEntry(this.bytes, fields.records, record, this.recurring) : undefined;
  }
}

/**
 * Lines of NDJSON, decoded one by one as their turn comes: text decoded ahead would live through many
 * collections while the batch is replayed, and be copied by each; the bytes are outside the heap.
 */
class LineBatch implements Batch {
  /** Per entry: start, end, line number and entry number. */
  private readonly spans: number[] = [];

  constructor(private readonly bytes: Buffer) {}

  get size(): number {
    return this.spans.length / 4;
  }

  add(start: number, end: number, line: number, number: number): void {
    this.spans.push(start, end, line, number);
  }

  number(index: number): number {
    return this.spans[index * 4 + 3] ?? 0;
  }

  where(index: number): string {
    return `line ${this.spans[index * 4 + 2] ?? 0}`;
  }

  text(index: number): string {
    return this.bytes.toString('utf8', this.spans[index * 4], this.spans[index * 4 + 1]);
  }

  readonly fingerprints = undefined;
}

async function* harEntries(path: string, inWorkerFrom: number, fields: EntryFields): AsyncGenerator<Batch> {
  let number = 0;
  if ((await sizeOf(path)) >= inWorkerFrom) {
    const recurring = new RecurringStrings();
    for await (const entries of harEntryBytesInWorker(path, fields === 'judged')) {
      const batch = new EntryBytesBatch(entries, number + 1, recurring);
      yield batch;
      number += batch.size;
    }
    return;
  }
  const scanner = new HarEntryScanner();
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    const texts = scanner.push(chunk as Buffer);
    yield new TextBatch(texts, number + 1);
    number += texts.length;
  }
  scanner.end();
}

/** The file's size; 0 when it cannot be read, so that reading it here says why. */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

const NEWLINE = 0x0a;

async function* ndjsonEntries(path: string): AsyncGenerator<Batch> {
  let carry: Buffer = Buffer.alloc(0);
  let line = 0;
  let number = 0;
  const add = (batch: LineBatch, bytes: Buffer, start: number, end: number): void => {
    line++;
    // A byte order mark before the first line, which some tools write: JSON's RFC lets a reader ignore it.
    if (line === 1 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    if (!isBlank(bytes, start, end)) batch.add(start, end, line, ++number);
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    let start = 0;
    if (carry.length > 0) {
      // Only the line that straddles two chunks is copied, not the whole megabyte after it.
      const end = bytes.indexOf(NEWLINE);
      if (end === -1) {
        carry = Buffer.concat([carry, bytes]);
        continue;
      }
      const straddling = Buffer.concat([carry, bytes.subarray(0, end)]);
      const first = new LineBatch(straddling);
      add(first, straddling, 0, straddling.length);
      yield first;
      start = end + 1;
    }
    const batch = new LineBatch(bytes);
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      add(batch, bytes, start, end);
      start = end + 1;
    }
    carry = bytes.subarray(start);
    yield batch;
  }
  if (carry.length > 0) {
    const last = new LineBatch(carry);
    add(last, carry, 0, carry.length);
    yield last;
  }
}

/** Only JSON's whitespace between start and end. */
function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const byte = bytes[at];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return false;
  }
  return true;
}
