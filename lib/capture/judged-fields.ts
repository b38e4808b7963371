/**
 * A HAR entry as the judge reads it, built from its bytes and the record of where its judged fields sit
 * (judged-field-index.ts): the same values JSON.parse of the whole entry gives for those fields, and nothing else.
 * A string of ASCII without escapes is sliced from the bytes; any other value is parsed from its own text alone.
 */
import { ABSENT, JSON_VALUE, LEAF, LEAF_INTS, PAIR_INTS, PLAIN, REQUEST_HEADERS, RESPONSE_HEADERS } from './judged-field-index.ts';
import { RecurringStrings } from './recurring-strings.ts';

/**
 * Buffer's own latin1Slice and utf8Slice, which toString(encoding, start, end) calls after checking its arguments and
 * looking up the encoding by name: that cost the judging thread more than the slicing, on a dozen strings an entry.
 */
type SlicedBuffer = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

/**
 * Headers, the method and the URL recur from entry to entry, and are given as the same strings; a time and a body
 * seldom do, and would only push those out.
 */
const recurring = new RecurringStrings();

/** The fields of a HAR entry the judge reads (harness/judge/capture-entry.ts), those the entry holds. */
export interface JudgedHarEntry {
  startedDateTime: unknown;
  time: unknown;
  request: { method: unknown; url: unknown; headers: Array<{ name: unknown; value: unknown }> | undefined; postData: { text: unknown; mimeType: unknown } | undefined };
  response: { status: unknown; headers: Array<{ name: unknown; value: unknown }> | undefined; content: { text: unknown; encoding: unknown } | undefined; _error: unknown };
  _error: unknown;
  _fromCache: unknown;
}

/** An entry of `bytes`, from its record at `records[record]`. */
export function judgedHarEntry(bytes: Buffer, records: Int32Array, record: number): JudgedHarEntry {
  const entry = bytes as SlicedBuffer;
  const postText = leaf(entry, records, record, LEAF.postText, false);
  const postMimeType = leaf(entry, records, record, LEAF.postMimeType, true);
  const contentText = leaf(entry, records, record, LEAF.contentText, false);
  const contentEncoding = leaf(entry, records, record, LEAF.contentEncoding, true);
  return {
    startedDateTime: leaf(entry, records, record, LEAF.startedDateTime, false),
    time: leaf(entry, records, record, LEAF.time, false),
    request: {
      method: leaf(entry, records, record, LEAF.method, true),
      url: leaf(entry, records, record, LEAF.url, true),
      headers: headers(entry, records, record, REQUEST_HEADERS),
      postData: postText === undefined && postMimeType === undefined ? undefined : { text: postText, mimeType: postMimeType },
    },
    response: {
      status: leaf(entry, records, record, LEAF.status, false),
      headers: headers(entry, records, record, RESPONSE_HEADERS),
      content: contentText === undefined && contentEncoding === undefined ? undefined : { text: contentText, encoding: contentEncoding },
      _error: leaf(entry, records, record, LEAF.responseError, false),
    },
    _error: leaf(entry, records, record, LEAF.error, false),
    _fromCache: leaf(entry, records, record, LEAF.fromCache, false),
  };
}

function leaf(bytes: SlicedBuffer, records: Int32Array, record: number, slot: number, recurs: boolean): unknown {
  return leafValue(bytes, records, record + slot * LEAF_INTS, recurs);
}

function headers(bytes: SlicedBuffer, records: Int32Array, record: number, slot: number): Array<{ name: unknown; value: unknown }> | undefined {
  const count = records[record + slot + 1] as number;
  if (count === -1) return undefined;
  const pairs = new Array<{ name: unknown; value: unknown }>(count);
  let pair = record + (records[record + slot] as number);
  for (let index = 0; index < count; index++, pair += PAIR_INTS) pairs[index] = { name: leafValue(bytes, records, pair, true), value: leafValue(bytes, records, pair + LEAF_INTS, true) };
  return pairs;
}

/** `recurs`: a string likely written on other entries too (RecurringStrings). */
function leafValue(bytes: SlicedBuffer, records: Int32Array, at: number, recurs: boolean): unknown {
  const kind = records[at];
  if (kind === ABSENT) return undefined;
  const start = records[at + 1] as number;
  const end = records[at + 2] as number;
  if (kind === PLAIN) return recurs ? recurring.of(bytes, start, end) : bytes.latin1Slice(start, end);
  if (kind === JSON_VALUE) return JSON.parse(bytes.utf8Slice(start, end));
  return wholeNumber(bytes, start, end) ?? Number(bytes.latin1Slice(start, end));
}

/** A number of up to 15 digits, no sign, fraction or exponent, read from its bytes without making its text. */
function wholeNumber(bytes: Buffer, start: number, end: number): number | undefined {
  if (end - start > 15) return undefined;
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = (bytes[at] as number) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}
