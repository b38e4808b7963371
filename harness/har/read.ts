/**
 * Reads a capture one entry at a time, in either of the two formats the harness accepts:
 * - `.har`: one HAR 1.2 JSON document (what browsers, Playwright and the recorder write), streamed;
 * - `.har.ndjson` / `.jsonl`: one HAR entry per line, for captures too large to want one JSON document.
 * Either way memory stays that of one entry, however long the capture.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { HarEntryScanner, HarFormatError } from './entry-scanner.ts';

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

const CHUNK_BYTES = 1 << 20;

/** Every entry of the capture, parsed as plain JSON (bodies are strings in HAR, so no number is rounded). */
export async function* readCapture(path: string): AsyncGenerator<RawEntry> {
  const name = basename(path);
  const batches = captureFormat(path) === 'ndjson' ? ndjsonEntries(path) : harEntries(path);
  try {
    // A batch per chunk read: one await per megabyte rather than two per entry.
    for await (const batch of batches) {
      for (const { number, where, text } of batch) {
        let entry: unknown;
        try {
          entry = JSON.parse(text);
        } catch (error) {
          throw new CaptureInputError(`${name}: ${where} is not valid JSON (${(error as Error).message})`);
        }
        if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new CaptureInputError(`${name}: ${where} is not a JSON object`);
        yield { number, entry };
      }
    }
  } catch (error) {
    if (error instanceof HarFormatError) throw new CaptureInputError(`${name}: malformed HAR: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CaptureInputError(`${path}: no such file`);
    if (code === 'EISDIR') throw new CaptureInputError(`${path}: is a directory, expected a .har or .har.ndjson file`);
    if (code === 'EACCES') throw new CaptureInputError(`${path}: permission denied`);
    throw error;
  }
}

interface EntryText {
  number: number;
  /** Where the entry is, for messages: "entry 3" in a HAR document, "line 17" in NDJSON. */
  where: string;
  text: string;
}

async function* harEntries(path: string): AsyncGenerator<EntryText[]> {
  const scanner = new HarEntryScanner();
  let number = 0;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    yield scanner.push(chunk as string).map((text) => ({ number: ++number, where: `entry ${number}`, text }));
  }
  scanner.end();
}

const NEWLINE = 0x0a;

/** Lines are cut from the bytes and decoded one by one: no megabyte string is built, joined or split. */
async function* ndjsonEntries(path: string): AsyncGenerator<EntryText[]> {
  let carry: Buffer = Buffer.alloc(0);
  let line = 0;
  let number = 0;
  const entry = (bytes: Buffer, start: number, end: number): EntryText | undefined => {
    line++;
    const text = bytes.toString('utf8', start, end);
    return text.trim() ? { number: ++number, where: `line ${line}`, text } : undefined;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    const batch: EntryText[] = [];
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      // Only the line that straddles two chunks is copied into one piece.
      const found = start === 0 && carry.length > 0 ? entry(Buffer.concat([carry, bytes.subarray(0, end)]), 0, carry.length + end) : entry(bytes, start, end);
      if (found) batch.push(found);
      start = end + 1;
    }
    carry = start === 0 ? Buffer.concat([carry, bytes]) : Buffer.from(bytes.subarray(start));
    yield batch;
  }
  const last = carry.length > 0 ? entry(carry, 0, carry.length) : undefined;
  if (last) yield [last];
  if (number === 0) throw new CaptureInputError(`${basename(path)}: the file holds no entries (expected one HAR entry per line)`);
}
