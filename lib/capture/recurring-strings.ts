/**
 * Strings read from a large HAR's bytes, made once and given again while they recur: a header's name, a key,
 * "application/json", a method, a URL, an answer's body (the same page listed, the same pet fetched, the same
 * refusal), written on entry after entry. Making each afresh cost the judging thread a C++ call and an allocation
 * per field (and a parse per body), their collection, and, in the judge's memos keyed by those strings, the hash of
 * each new string; a string given again has its hash already.
 *
 * The table is kept on both threads, in step. The reading thread (RecurringBytes) hashes and compares each text's
 * bytes and gives it one of a pair of places in a table by that hash, a newer text taking the one of the two found or
 * placed less lately; the judging thread (RecurringStrings) makes a string only where a text takes a place, and
 * otherwise reads the string held there.
 * Hashing and comparing the bytes on the judging thread had been its costliest step of building an entry (a tenth of
 * that thread). Both sides see the same texts in the same order (the entries in order, and each entry's in the order
 * judged-field-index.ts's placeRecurring gives them), so a place means the same text on both. Memory stays that of
 * the places: SHORT_PLACES short texts and LONG_PLACES longer ones on each side.
 */

/**
 * Short texts (names, values, URLs) and longer ones (bodies) have places of their own: a body would push out dozens of
 * names. A text may sit in either place of its pair, and there are enough pairs for the few thousand bodies a capture
 * answers again and again, some only after 10,000 others (a page that changes as pets are added): with one place per
 * hash and 2,048 long places, 34,000 of the bench HAR's 119,500 bodies over 96 bytes came to the judging thread as new
 * strings, each made, hashed and compared there again, and 120,000 short texts; now 7,400 and 83,000, which saved the
 * judging thread ~35 ms of CPU (median of 28 alternating pairs, ~2%), for 9.2 MB held on the reading thread (was
 * 1.4 MB).
 */
const SHORT_TEXT = 96;
const SHORT_PLACES = 8192;
/** Texts longer than this are made each time: comparing them costs about as much as making them. */
const LONG_TEXT = 512;
const LONG_PLACES = 16384;
const PLACES = SHORT_PLACES + LONG_PLACES;

/** What RecurringBytes.place gives a text too long to be held: it is then made each time. */
export const NOT_HELD = -1;

/** The reading thread's side: where each recurring text's bytes are held. */
export class RecurringBytes {
  private readonly held = new Uint8Array(SHORT_PLACES * SHORT_TEXT + LONG_PLACES * LONG_TEXT);
  private readonly heldWords = new DataView(this.held.buffer);
  private readonly lengths = new Int32Array(PLACES).fill(-1);
  /** Each held text's hash: of a pair, a place holding another text is passed over without comparing its bytes. */
  private readonly hashes = new Int32Array(PLACES);
  /** Of each pair of places, which one (0 or 1) was placed or found last: a new text takes the other. */
  private readonly latestOfPair = new Uint8Array(PLACES / 2);
  /** The bytes last placed from (the entries of a chunk come one after another), read four at a time through `words`. */
  private bytes: Uint8Array | undefined;
  private words: DataView = new DataView(new ArrayBuffer(0));
  /** Whether the last text placed took its place afresh (the judging thread then makes its string). */
  placedAfresh = false;

  /** The place of the text of `bytes` from `start` to `end` (placedAfresh says if it was held there already), or NOT_HELD. */
  place(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > LONG_TEXT) return NOT_HELD;
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const hash = hashOf(this.words, bytes, start, end);
    const pair = length <= SHORT_TEXT ? (hash & (SHORT_PLACES / 2 - 1)) * 2 : SHORT_PLACES + (hash & (LONG_PLACES / 2 - 1)) * 2;
    for (let place = pair; place < pair + 2; place++) {
      if (this.lengths[place] === length && this.hashes[place] === hash && this.holds(startOf(place), bytes, start, length)) {
        this.latestOfPair[pair / 2] = place - pair;
        this.placedAfresh = false;
        return place;
      }
    }
    const place = pair + 1 - (this.latestOfPair[pair / 2] as number);
    this.held.set(bytes.subarray(start, end), startOf(place));
    this.lengths[place] = length;
    this.hashes[place] = hash;
    this.latestOfPair[pair / 2] = place - pair;
    this.placedAfresh = true;
    return place;
  }

  /** Whether the text held from `from` is the `length` bytes from `start` of `bytes` (those `words` reads). */
  private holds(from: number, bytes: Uint8Array, start: number, length: number): boolean {
    let offset = 0;
    for (; offset + 4 <= length; offset += 4) if (this.heldWords.getInt32(from + offset, true) !== this.words.getInt32(start + offset, true)) return false;
    for (; offset < length; offset++) if (this.held[from + offset] !== bytes[start + offset]) return false;
    return true;
  }
}

/** Where the bytes of the text at `place` are held. */
function startOf(place: number): number {
  return place < SHORT_PLACES ? place * SHORT_TEXT : SHORT_PLACES * SHORT_TEXT + (place - SHORT_PLACES) * LONG_TEXT;
}

/**
 * A hash of the text from `start` to `end`, read four bytes at a time where it can be, as holds() compares them: a byte
 * at a time, the two had cost the reading thread about 0.14 CPU-s more over the bench HAR's 200,000 entries (1.82 s
 * against 1.68 s, the reader alone). Its low bits pick the place, so the last steps fold the high bits into them; it
 * also leaves fewer texts pushing each other out there (163,000 placed afresh of 2.9 million, from 172,000).
 */
function hashOf(words: DataView, bytes: Uint8Array, start: number, end: number): number {
  let hash = end - start;
  let at = start;
  for (; at + 4 <= end; at += 4) hash = mix(hash, words.getInt32(at, true));
  for (; at < end; at++) hash = mix(hash, bytes[at] as number);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  return hash ^ (hash >>> 13);
}

function mix(hash: number, value: number): number {
  const multiplied = Math.imul(hash ^ value, 0x9e3779b1);
  return (multiplied << 13) | (multiplied >>> 19);
}

/** The judging thread's side: the string at each place, and its lower case where a header's name asked for it. */
export class RecurringStrings {
  private readonly strings = new Array<string>(PLACES).fill('');
  private readonly lowerCase = new Array<string | undefined>(PLACES).fill(undefined);
  /** The capture's number of the next entry to be built. */
  private next = 1;

  /**
   * Says entry `number` is built now: the strings are the worker's only while every entry is built, in order. One
   * skipped or built twice would leave a place holding another text than the worker's, silently: this says so instead.
   */
  inTurn(number: number): void {
    if (number !== this.next) throw new Error(`HAR entry ${number} built out of turn (entry ${this.next} is next): the recurring strings would not be the reading thread's`);
    this.next++;
  }

  /** Keeps `text`, made of a text that now takes `place`. */
  keep(place: number, text: string): void {
    this.strings[place] = text;
    this.lowerCase[place] = undefined;
  }

  /** The string held at `place`. */
  at(place: number): string {
    return this.strings[place] as string;
  }

  /** The string held at `place` in lower case: made once while it is held there (header names, written on every entry). */
  lowerCaseAt(place: number): string {
    let lower = this.lowerCase[place];
    if (lower === undefined) this.lowerCase[place] = lower = (this.strings[place] as string).toLowerCase();
    return lower;
  }
}
