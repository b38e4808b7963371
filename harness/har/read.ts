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
  const texts = captureFormat(path) === 'ndjson' ? ndjsonEntries(path) : harEntries(path);
  try {
    for await (const { number, where, text } of texts) {
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch (error) {
        throw new CaptureInputError(`${name}: ${where} is not valid JSON (${(error as Error).message})`);
      }
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new CaptureInputError(`${name}: ${where} is not a JSON object`);
      yield { number, entry };
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

async function* harEntries(path: string): AsyncGenerator<EntryText> {
  const scanner = new HarEntryScanner();
  let number = 0;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    for (const text of scanner.push(chunk as string)) {
      number++;
      yield { number, where: `entry ${number}`, text };
    }
  }
  scanner.end();
}

async function* ndjsonEntries(path: string): AsyncGenerator<EntryText> {
  let carry = '';
  let line = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    const lines = (carry + (chunk as string)).split('\n');
    carry = lines.pop() ?? '';
    for (const text of lines) {
      line++;
      if (text.trim()) yield { number: ++number, where: `line ${line}`, text };
    }
  }
  if (carry.trim()) yield { number: ++number, where: `line ${line + 1}`, text: carry };
  if (number === 0) throw new CaptureInputError(`${basename(path)}: the file holds no entries (expected one HAR entry per line)`);
}
