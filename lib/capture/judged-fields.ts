/**
 * A HAR entry as the judge reads it, built from its bytes and the record of where its judged fields sit
 * (judged-field-index.ts): the same values JSON.parse of the whole entry gives for those fields, and nothing else,
 * but for the headers, which come as the record the judge reads them as (har-headers.ts). A string is sliced from the
 * bytes (its escapes decoded there already by the reading thread, strings-decoded-in-place.ts), or given again where it
 * recurs (recurring-strings.ts); any other value is parsed from its own text alone.
 */
import { HarHeaders, addHeaderText, headerText } from './har-headers.ts';
import { ABSENT, JSON_VALUE, LEAF, LEAF_INTS, NOT_PLACED, PAIR_INTS, PLACE, PLAIN, REQUEST_HEADERS, RESPONSE_HEADERS, STARTED_MS, UTF8_TEXT, WHOLE, WHOLE_NUMBER, placeOf } from './judged-field-index.ts';
import type { RecurringStrings } from './recurring-strings.ts';
import { STARTED_MS_READ, startedMsAt } from './started-read-in-place.ts';

/**
 * Buffer's own latin1Slice and utf8Slice, which toString(encoding, start, end) calls after checking its arguments and
 * looking up the encoding by name: that cost the judging thread more than the slicing, on a dozen strings an entry.
 */
type SlicedBuffer = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

/** The fields of a HAR entry the judge reads (harness/judge/capture-entry.ts), those the entry holds. */
export interface JudgedHarEntry {
  /** Undefined where the reading thread read it as a time ([STARTED_MS_READ]). */
  startedDateTime: unknown;
  /** startedDateTime's milliseconds, where the reading thread read it as a time (started-read-in-place.ts). */
  [STARTED_MS_READ]: number | undefined;
  time: unknown;
  request: { method: unknown; url: unknown; headers: HarHeaders | undefined; postData: { text: unknown; mimeType: unknown } | undefined };
  response: { status: unknown; headers: HarHeaders | undefined; content: { text: unknown; encoding: unknown } | undefined; _error: unknown };
  _error: unknown;
  _fromCache: unknown;
}

/**
 * An entry of `bytes`, from its record at `records[record]`. `recurring`: the strings of the recurring texts of the
 * entries before, of the same reading, each of which was built here in turn.
 */
export function judgedHarEntry(bytes: Buffer, records: Int32Array, record: number, recurring: RecurringStrings): JudgedHarEntry {
  const entry = bytes as SlicedBuffer;
  // The recurring texts first, in the order the reading thread placed them (RECURRING_LEAVES, then the headers).
  const method = leaf(entry, records, record, LEAF.method, recurring);
  const url = leaf(entry, records, record, LEAF.url, recurring);
  const postMimeType = leaf(entry, records, record, LEAF.postMimeType, recurring);
  const contentEncoding = leaf(entry, records, record, LEAF.contentEncoding, recurring);
  const contentText = leaf(entry, records, record, LEAF.contentText, recurring);
  const requestHeaders = headers(entry, records, record, REQUEST_HEADERS, recurring);
  const responseHeaders = headers(entry, records, record, RESPONSE_HEADERS, recurring);
  const postText = leaf(entry, records, record, LEAF.postText, recurring);
  const started = record + LEAF.startedDateTime * LEAF_INTS;
  const startedRead = records[started] === STARTED_MS;
  return {
    startedDateTime: startedRead ? undefined : leaf(entry, records, record, LEAF.startedDateTime, recurring),
    [STARTED_MS_READ]: startedRead ? startedMsAt(records, started) : undefined,
    time: leaf(entry, records, record, LEAF.time, recurring),
    request: {
      method,
      url,
      headers: requestHeaders,
      postData: postText === undefined && postMimeType === undefined ? undefined : { text: postText, mimeType: postMimeType },
    },
    response: {
      status: leaf(entry, records, record, LEAF.status, recurring),
      headers: responseHeaders,
      content: contentText === undefined && contentEncoding === undefined ? undefined : { text: contentText, encoding: contentEncoding },
      _error: leaf(entry, records, record, LEAF.responseError, recurring),
    },
    _error: leaf(entry, records, record, LEAF.error, recurring),
    _fromCache: leaf(entry, records, record, LEAF.fromCache, recurring),
  };
}

function leaf(bytes: SlicedBuffer, records: Int32Array, record: number, slot: number, recurring: RecurringStrings): unknown {
  return leafValue(bytes, records, record + slot * LEAF_INTS, recurring);
}

/** The list's headers as the judge reads them; the index vouched that each name is a string and no value an object or array. */
function headers(bytes: SlicedBuffer, records: Int32Array, record: number, slot: number, recurring: RecurringStrings): HarHeaders | undefined {
  const count = records[record + slot + 1] as number;
  if (count === -1) return undefined;
  const byName: Record<string, string> = {};
  let pair = record + (records[record + slot] as number);
  for (let index = 0; index < count; index++, pair += PAIR_INTS) {
    const name = lowerCaseName(bytes, records, pair, recurring);
    addHeaderText(byName, name, headerText(leafValue(bytes, records, pair + LEAF_INTS, recurring)));
  }
  return new HarHeaders(byName, count);
}

/** A header's name in lower case: made once while its text is held as a recurring one. */
function lowerCaseName(bytes: SlicedBuffer, records: Int32Array, at: number, recurring: RecurringStrings): string {
  const placed = records[at + PLACE] as number;
  if (placed > 0) return recurring.lowerCaseAt(placeOf(placed));
  const name = leafValue(bytes, records, at, recurring) as string;
  return placed === NOT_PLACED ? name.toLowerCase() : recurring.lowerCaseAt(placeOf(placed));
}

/** The leaf's value: the string held at its place where it recurs, else made of its text (and kept where it takes a place). */
function leafValue(bytes: SlicedBuffer, records: Int32Array, at: number, recurring: RecurringStrings): unknown {
  // Before the place is read: a whole number's value stands where a string's place does.
  if (records[at] === WHOLE_NUMBER) return records[at + WHOLE];
  const placed = records[at + PLACE] as number;
  if (placed > 0) return recurring.at(placeOf(placed));
  const value = valueOf(bytes, records, at);
  if (placed < 0) recurring.keep(placeOf(placed), value as string);
  return value;
}

function valueOf(bytes: SlicedBuffer, records: Int32Array, at: number): unknown {
  const kind = records[at];
  if (kind === ABSENT) return undefined;
  const start = records[at + 1] as number;
  const end = records[at + 2] as number;
  if (kind === PLAIN) return bytes.latin1Slice(start, end);
  if (kind === UTF8_TEXT) return bytes.utf8Slice(start, end);
  if (kind === JSON_VALUE) return JSON.parse(bytes.utf8Slice(start, end));
  return Number(bytes.latin1Slice(start, end));
}
