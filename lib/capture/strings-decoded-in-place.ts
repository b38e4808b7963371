/**
 * The judged strings of a HAR entry that hold an escape or a byte beyond ASCII, decoded on the reading thread, in the
 * entry's own bytes: a string's UTF-8 is never longer than its JSON text, so each is written over its text, from its
 * start, and its leaf then names its content as PLAIN (ASCII alone) or UTF8_TEXT. The judging thread slices the string
 * and no longer parses it: a body's string made by JSON.parse of its text (with a quote escaped at each name) had cost
 * that thread about 4% of its CPU over the bench HAR (200,000 entries), the string sliced for it first included.
 *
 * A string holding a UTF-16 surrogate written as an escape (\ud83d) is left as it was, to JSON.parse: one without its
 * pair has no UTF-8, and JSON.parse keeps it as it is. The entry's text is not the one written from then on: the
 * reading thread decodes only entries it has a record of (those it vouched for), after their SHA-1 was taken.
 *
 * A string held already as a recurring text (placeRecurring, run first, by the text as written) is not decoded: the
 * judging thread reads the string held, not the leaf (a body answered again and again, escaped at every name: 0.1 s
 * of the reading thread's CPU on the bench HAR).
 */
import { JSON_VALUE, LEAF_COUNT, LEAF_INTS, PLACE, PLAIN, UTF8_TEXT, forEachHeaderLeaf, isHeld } from './judged-field-index.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;

/** What each simple escape (\" \\ \/ \b \f \n \r \t) stands for, by the byte after its backslash. */
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const [escaped, byte] of [['"', 0x22], ['\\', 0x5c], ['/', 0x2f], ['b', 0x08], ['f', 0x0c], ['n', 0x0a], ['r', 0x0d], ['t', 0x09]] as const) SIMPLE_ESCAPE[escaped.charCodeAt(0)] = byte;

/** Decodes the record's strings (its leaves, then its header pairs) in `bytes`, where rebase() moved its offsets. */
export function decodeStringsInPlace(records: Int32Array, record: number, bytes: Uint8Array): void {
  for (let leaf = 0; leaf < LEAF_COUNT; leaf++) decodeLeaf(records, record + leaf * LEAF_INTS, bytes);
  forEachHeaderLeaf(records, record, (leaf) => decodeLeaf(records, leaf, bytes));
}

/** A JSON_VALUE string's leaf, its text from its opening quote to past its closing one (the walk checked its escapes). */
function decodeLeaf(records: Int32Array, leaf: number, bytes: Uint8Array): void {
  const start = (records[leaf + 1] as number) + 1;
  const end = (records[leaf + 2] as number) - 1;
  if (records[leaf] !== JSON_VALUE || bytes[start - 1] !== QUOTE || isHeld(records[leaf + PLACE] as number) || holdsSurrogate(bytes, start, end)) return;
  let to = start;
  let ascii = true;
  for (let at = start; at < end; ) {
    const byte = bytes[at] as number;
    if (byte !== BACKSLASH) {
      if (byte >= 0x80) ascii = false;
      bytes[to++] = byte;
      at++;
    } else if (bytes[at + 1] !== U) {
      bytes[to++] = SIMPLE_ESCAPE[bytes[at + 1] as number] as number;
      at += 2;
    } else {
      const unit = hexAt(bytes, at + 2);
      at += 6;
      if (unit < 0x80) bytes[to++] = unit;
      else {
        ascii = false;
        if (unit < 0x800) bytes[to++] = 0xc0 | (unit >> 6);
        else {
          bytes[to++] = 0xe0 | (unit >> 12);
          bytes[to++] = 0x80 | ((unit >> 6) & 0x3f);
        }
        bytes[to++] = 0x80 | (unit & 0x3f);
      }
    }
  }
  records[leaf] = ascii ? PLAIN : UTF8_TEXT;
  records[leaf + 1] = start;
  records[leaf + 2] = to;
}

/** Whether a \u escape between `start` and `end` writes a UTF-16 surrogate (D800 to DFFF). */
function holdsSurrogate(bytes: Uint8Array, start: number, end: number): boolean {
  // A byte at a time: a body escapes a quote at every name, and indexOf called per backslash cost more.
  for (let at = start; at < end; at++) {
    if (bytes[at] !== BACKSLASH) continue;
    if (bytes[at + 1] === U && (hexAt(bytes, at + 2) & 0xf800) === 0xd800) return true;
    at++;
  }
  return false;
}

/** The four hex digits from `at` (the walk checked they are). */
function hexAt(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let digit = at; digit < at + 4; digit++) {
    const code = (bytes[digit] as number) | 0x20;
    value = value * 16 + (code <= 0x39 ? code - 0x30 : code - 0x57);
  }
  return value;
}
