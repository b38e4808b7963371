/**
 * Short ASCII strings read from a large HAR's bytes, made once and given again while they recur: a header's name,
 * a key, "application/json", a method, a URL, written on entry after entry. Slicing each afresh cost the judging
 * thread a C++ call and an allocation per field, their collection, and, in the judge's memos keyed by those strings,
 * the hash of each new string; a string given again has its hash already.
 *
 * The table is kept on both threads, in step. The reading thread (RecurringBytes) hashes and compares each text's
 * bytes and gives it a place in a table by that hash, a newer text taking the place of an older one; the judging
 * thread (RecurringStrings) makes a string only where a text takes a place, and otherwise reads the string held there.
 * Hashing and comparing the bytes on the judging thread had been its costliest step of building an entry (a tenth of
 * that thread). Both sides see the same texts in the same order (the entries in order, and each entry's in the order
 * judged-field-index.ts's placeRecurring gives them), so a place means the same text on both. Memory stays that of
 * TABLE_SIZE short strings on each side.
 */

/** Longer strings (a body, a long URL) are sliced each time: comparing them costs about as much, and they recur less. */
const LONGEST = 96;
const TABLE_SIZE = 4096;

/** What RecurringBytes.place gives a text too long to be held: it is then sliced each time. */
export const NOT_HELD = -1;

/** The reading thread's side: where each recurring text's bytes are held. */
export class RecurringBytes {
  private readonly held = new Uint8Array(TABLE_SIZE * LONGEST);
  private readonly lengths = new Int32Array(TABLE_SIZE).fill(-1);
  /** Whether the last text placed took its place afresh (the judging thread then makes its string). */
  placedAfresh = false;

  /** The place of the ASCII text of `bytes` from `start` to `end` (placedAfresh says if it was held there already), or NOT_HELD. */
  place(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > LONGEST) return NOT_HELD;
    let hash = length;
    for (let at = start; at < end; at++) hash = (Math.imul(hash, 31) + (bytes[at] as number)) | 0;
    const place = (hash ^ (hash >>> 12)) & (TABLE_SIZE - 1);
    const from = place * LONGEST;
    this.placedAfresh = !(this.lengths[place] === length && sameBytes(this.held, from, bytes, start, length));
    if (this.placedAfresh) {
      this.held.set(bytes.subarray(start, end), from);
      this.lengths[place] = length;
    }
    return place;
  }
}

function sameBytes(held: Uint8Array, from: number, bytes: Uint8Array, start: number, length: number): boolean {
  for (let offset = 0; offset < length; offset++) if (held[from + offset] !== bytes[start + offset]) return false;
  return true;
}

/** Buffer's own latin1Slice, without toString's checks and look-up of the encoding by name (judged-fields.ts). */
type LatinSliced = Buffer & { latin1Slice(start: number, end: number): string };

/** The judging thread's side: the string at each place, and its lower case where a header's name asked for it. */
export class RecurringStrings {
  private readonly strings = new Array<string>(TABLE_SIZE).fill('');
  private readonly lowerCase = new Array<string | undefined>(TABLE_SIZE).fill(undefined);

  /** The text of `bytes` from `start` to `end`, which now takes `place`. */
  placed(place: number, bytes: Buffer, start: number, end: number): string {
    const text = (bytes as LatinSliced).latin1Slice(start, end);
    this.strings[place] = text;
    this.lowerCase[place] = undefined;
    return text;
  }

  /** The text held at `place`. */
  at(place: number): string {
    return this.strings[place] as string;
  }

  /** The text held at `place` in lower case: made once while it is held there (header names, written on every entry). */
  lowerCaseAt(place: number): string {
    let lower = this.lowerCase[place];
    if (lower === undefined) this.lowerCase[place] = lower = (this.strings[place] as string).toLowerCase();
    return lower;
  }
}
