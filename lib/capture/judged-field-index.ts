/**
 * Where the fields the judge reads sit in a HAR entry's bytes, found on the worker thread that reads a large HAR
 * (har-reading-worker.ts), so that the judging thread builds each entry from those bytes alone (judged-fields.ts)
 * rather than decoding the whole entry and parsing it. The walk checks the entry is JSON as strictly as JSON.parse
 * does; an entry it cannot vouch for (not JSON, a shape the judge reads otherwise, a tracked key written twice or
 * with an escape, nesting deeper than MAX_DEPTH) gets no record, and the judging thread parses it whole as before,
 * so its errors stay those of JSON.parse and of the judge.
 *
 * A record, in Int32s: LEAF_COUNT leaves of four (kind, start, end: offsets from the entry's first byte, which
 * rebase() moves to where the entry sits in the bytes posted; and, for a recurring text, its place in the table of
 * recurring-strings.ts, which placeRecurring() gives: PLACE), then the request's and the response's headers (where their
 * pairs start in the record, and how many; -1 where the entry has no such list), then each header pair as two leaves
 * (name, value).
 */
import { NOT_HELD, type RecurringBytes } from './recurring-strings.ts';
import { firstStop, stopsIn } from './string-stops.ts';

/** The judged fields that are values, not containers: their slot in a record. */
export const LEAF = {
  startedDateTime: 0,
  time: 1,
  method: 2,
  url: 3,
  postText: 4,
  postMimeType: 5,
  status: 6,
  contentText: 7,
  contentEncoding: 8,
  responseError: 9,
  error: 10,
  fromCache: 11,
} as const;
export const LEAF_COUNT = 12;
export const LEAF_INTS = 4;
/** Where in a record the request's headers are described (start, count), then the response's. */
export const REQUEST_HEADERS = LEAF_COUNT * LEAF_INTS;
export const RESPONSE_HEADERS = REQUEST_HEADERS + 2;
const FIXED_INTS = RESPONSE_HEADERS + 2;
/** A header pair: its name's leaf, then its value's. */
export const PAIR_INTS = 2 * LEAF_INTS;

/**
 * What a leaf holds: nothing (the key is absent), a string of ASCII without escapes (start and end are its content; so
 * too one decoded, UTF8_TEXT), a number, or any other JSON value (start and end are its text). A number of nine digits at most, without sign,
 * fraction or exponent (a status, most times), is a WHOLE_NUMBER, its value at WHOLE: read here, where the walk
 * passes its digits anyway, it cost the judging thread an array read rather than a loop over its bytes (about 30 ms
 * over the bench HAR's 200,000 entries).
 */
export const ABSENT = 0;
export const PLAIN = 1;
export const NUMBER = 2;
export const JSON_VALUE = 3;
export const WHOLE_NUMBER = 4;
/**
 * A string's content as UTF-8, its escapes decoded (strings-decoded-in-place.ts): what a JSON_VALUE string becomes,
 * where it holds a byte beyond ASCII, once the reading thread decoded it. One of ASCII alone becomes PLAIN.
 */
export const UTF8_TEXT = 5;
/**
 * A startedDateTime the reading thread read as a time (started-read-in-place.ts): its milliseconds, the high 32 bits
 * where a leaf's start is and the low ones where its end is.
 */
export const STARTED_MS = 6;
/** Where in a WHOLE_NUMBER's leaf its value is (a string's leaf has its PLACE there). */
export const WHOLE = 3;
const MOST_WHOLE_DIGITS = 9;

/**
 * Where in a leaf a recurring text's place in the table of recurring-strings.ts is, which placeRecurring() writes:
 * NOT_PLACED, heldAt(place) where the string made of it is held there already, or placedAt(place) where it takes
 * the place now (the string is made of the leaf's text as its kind says, and kept there).
 */
export const PLACE = 3;
export const NOT_PLACED = 0;
const heldAt = (place: number): number => place + 1;
const placedAt = (place: number): number => -(place + 1);
/** The place a leaf's PLACE names, held or placed. */
export const placeOf = (placed: number): number => Math.abs(placed) - 1;
/** Whether a leaf's PLACE says its string is held already: the judging thread reads that string, not the leaf's text. */
export const isHeld = (placed: number): boolean => placed > 0;

/**
 * The leaves whose text recurs from entry to entry, in the order placeRecurring() places them, the request's header
 * pairs next and the response's last: the order the judging thread must read them in (judged-fields.ts). A time
 * seldom recurs, nor does a request's body (each new pet is another), and would only push those out.
 */
export const RECURRING_LEAVES = [LEAF.method, LEAF.url, LEAF.postMimeType, LEAF.contentEncoding, LEAF.contentText] as const;

/** Moves the offsets of the record at `records[record]` by `by`: from its entry's start to where the entry sits in the bytes posted. */
export function rebase(records: Int32Array, record: number, by: number): void {
  for (let leaf = 0; leaf < LEAF_COUNT; leaf++) moveLeaf(records, record + leaf * LEAF_INTS, by);
  forEachHeaderLeaf(records, record, (leaf) => moveLeaf(records, leaf, by));
}

/** Calls `visit` with each header leaf of the record at `records[record]`: the request's pairs, then the response's, a name then its value. */
export function forEachHeaderLeaf(records: Int32Array, record: number, visit: (leaf: number) => void): void {
  for (const list of [REQUEST_HEADERS, RESPONSE_HEADERS]) {
    const pairs = record + (records[record + list] as number);
    const count = records[record + list + 1] as number;
    for (let leaf = 0; leaf < count * 2; leaf++) visit(pairs + leaf * LEAF_INTS);
  }
}

/**
 * Gives each recurring text of the record at `records[record]` (its offsets into `bytes`, rebased) its place in
 * `table`, in the order RECURRING_LEAVES says.
 */
export function placeRecurring(records: Int32Array, record: number, bytes: Uint8Array, table: RecurringBytes): void {
  for (const leaf of RECURRING_LEAVES) placeLeaf(records, record + leaf * LEAF_INTS, bytes, table);
  forEachHeaderLeaf(records, record, (leaf) => placeLeaf(records, leaf, bytes, table));
}

/** A string's leaf (PLAIN, UTF8_TEXT, or JSON_VALUE from its opening quote) gets its place; any other value is made each time. */
function placeLeaf(records: Int32Array, leaf: number, bytes: Uint8Array, table: RecurringBytes): void {
  const kind = records[leaf];
  const start = records[leaf + 1] as number;
  if (kind !== PLAIN && kind !== UTF8_TEXT && (kind !== JSON_VALUE || bytes[start] !== QUOTE)) return;
  const place = table.place(bytes, start, records[leaf + 2] as number);
  if (place !== NOT_HELD) records[leaf + PLACE] = table.placedAfresh ? placedAt(place) : heldAt(place);
}

function moveLeaf(records: Int32Array, leaf: number, by: number): void {
  if (records[leaf] === ABSENT) return;
  records[leaf + 1]! += by;
  records[leaf + 2]! += by;
}

/** Deeper values are left to JSON.parse, whose limits are the ones a reader meets elsewhere. */
const MAX_DEPTH = 512;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** What a byte is inside a string: most are ORDINARY; the others (quote, backslash, control characters, bytes beyond ASCII) are looked at. */
const ORDINARY = 0;
const STRING_BYTE = new Uint8Array(256).map((_, code) => (code < 0x20 || code === QUOTE || code === BACKSLASH || code >= 0x80 ? 1 : ORDINARY));

/** Thrown where the walk cannot vouch for the entry: it is then parsed whole. */
const UNSURE = new Error('the entry is parsed whole');

/** The objects the walk reads members of, and the names it reads in each (a header pair's name and value are its two leaves). */
const ENTRY = 0;
const REQUEST = 1;
const POST_DATA = 2;
const RESPONSE = 3;
const CONTENT = 4;
const PAIR = 5;
const NAMES: readonly (readonly Uint8Array[])[] = [
  ['startedDateTime', 'time', 'request', 'response', '_error', '_fromCache'],
  ['method', 'url', 'headers', 'postData'],
  ['text', 'mimeType'],
  ['status', 'headers', 'content', '_error'],
  ['text', 'encoding'],
  ['name', 'value'],
].map((names) => names.map((name) => Buffer.from(name, 'latin1')));
/**
 * For each kind of object, the place in NAMES of its name of each length and first byte (no two share both), or -1:
 * a member's name is then compared with one name at most rather than each in turn, which had cost the reader alone
 * about 0.06 CPU-s more over the bench HAR (1.66 s against 1.60 s).
 */
const LONGEST_NAME = Math.max(...NAMES.flat().map((name) => name.length));
const nameAt = (length: number, first: number): number => length * 128 + first;
const NAME_BY_LENGTH_AND_FIRST = NAMES.map((names) => {
  const table = new Int8Array(nameAt(LONGEST_NAME + 1, 0)).fill(-1);
  names.forEach((name, index) => {
    const at = nameAt(name.length, name[0] as number);
    if (table[at] !== -1) throw new Error(`two judged names of the same length start with the same byte: ${name.toString()}`);
    table[at] = index;
  });
  return table;
});
/** The leaves of an entry's own names, by their place in NAMES[ENTRY] (request and response are objects). */
const ENTRY_LEAVES = [LEAF.startedDateTime, LEAF.time, -1, -1, LEAF.error, LEAF.fromCache];

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** The escapes JSON allows after a backslash, but for \u: " \ / b f n r t. */
function isSimpleEscape(code: number): boolean {
  return code === QUOTE || code === BACKSLASH || code === 47 || code === 98 || code === 102 || code === 110 || code === 114 || code === 116;
}

export class JudgedFieldIndex {
  private bytes: Uint8Array = new Uint8Array(0);
  /** `bytes` read four at a time (string-stops.ts). */
  private words: DataView = new DataView(new ArrayBuffer(0));
  private at = 0;
  private end = 0;
  private ints = new Int32Array(1 << 14);
  private length = 0;
  private record = 0;
  /** Where the walked entry's bytes start: offsets in its record are from there. */
  private base = 0;
  /** Where the entry last indexed ends (past its closing brace). */
  entryEnd = 0;

  /**
   * Indexes the entry that starts at bytes[start] ('{'): where its record starts, or -1 where it is to be parsed
   * whole. `end`: where the entry ends, when known; otherwise (`walking`) the walk finds it, within bytes, and gives
   * -1 where the entry does not end before bytes do (or is one it cannot vouch for: it is then walked again whole).
   * Offsets in the record are from the entry's start.
   */
  add(bytes: Uint8Array, start: number, end: number, walking = false): number {
    if (bytes !== this.bytes) this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes = bytes;
    this.at = start;
    this.end = end;
    this.base = start;
    this.record = this.length;
    this.reserve(FIXED_INTS);
    this.ints.fill(ABSENT, this.record, this.record + REQUEST_HEADERS);
    this.ints.fill(-1, this.record + REQUEST_HEADERS, this.record + FIXED_INTS);
    this.length += FIXED_INTS;
    try {
      this.entry();
      if (!walking && this.at !== this.end) throw UNSURE;
      if (this.at > this.end) throw UNSURE;
      this.entryEnd = this.at;
      return this.record;
    } catch (error) {
      if (error !== UNSURE) throw error;
      this.length = this.record;
      return -1;
    }
  }

  /** The records so far, one after another; the next ones start afresh. */
  take(): Int32Array<ArrayBuffer> {
    const records = this.ints.slice(0, this.length);
    this.length = 0;
    return records;
  }

  private reserve(ints: number): void {
    if (this.length + ints <= this.ints.length) return;
    const larger = new Int32Array(Math.max(this.ints.length * 2, this.length + ints));
    larger.set(this.ints.subarray(0, this.length));
    this.ints = larger;
  }

  private entry(): void {
    const seen = this.object(ENTRY, this.record);
    // No request object: the judge reads the entry as a line of the exchange format; no response: it says so.
    if ((seen & 0b1100) !== 0b1100) throw UNSURE;
  }

  /** The value of judged member `key` of an object of kind `object`, whose leaves are at `base` (a record, or a header pair). */
  private member(object: number, key: number, base: number): void {
    switch (object) {
      case ENTRY:
        if (key === 2) this.object(REQUEST, base);
        else if (key === 3) this.object(RESPONSE, base);
        else this.leaf(base + ENTRY_LEAVES[key]! * LEAF_INTS);
        return;
      case REQUEST:
        if (key === 2) this.headers(base + REQUEST_HEADERS);
        else if (key === 3) this.object(POST_DATA, base);
        else this.leaf(base + (key === 0 ? LEAF.method : LEAF.url) * LEAF_INTS);
        return;
      case POST_DATA:
        this.leaf(base + (key === 0 ? LEAF.postText : LEAF.postMimeType) * LEAF_INTS);
        return;
      case RESPONSE:
        if (key === 1) this.headers(base + RESPONSE_HEADERS);
        else if (key === 2) this.object(CONTENT, base);
        else this.leaf(base + (key === 0 ? LEAF.status : LEAF.responseError) * LEAF_INTS);
        return;
      case CONTENT:
        this.leaf(base + (key === 0 ? LEAF.contentText : LEAF.contentEncoding) * LEAF_INTS);
        return;
      default:
        this.leaf(base + key * LEAF_INTS);
    }
  }

  /** A list of {name, value}: anything else (an object of names, null) the judge reads otherwise. */
  private headers(slot: number): void {
    if (this.byteAt(this.at) !== OPEN_BRACKET) throw UNSURE;
    this.at++;
    this.ints[slot] = this.length - this.record;
    let count = 0;
    this.whitespace();
    if (this.byteAt(this.at) === CLOSE_BRACKET) this.at++;
    else
      for (;;) {
        this.whitespace();
        const pair = this.length;
        this.reserve(PAIR_INTS);
        this.ints.fill(ABSENT, pair, pair + PAIR_INTS);
        this.length += PAIR_INTS;
        count++;
        this.object(PAIR, pair);
        // A pair without a name that is a string the judge refuses, with its own words; a value that is an object or
        // an array it reads as its text, which may throw: both are left to JSON.parse and the judge, as they come.
        if (!this.isString(pair) || this.isContainer(pair + LEAF_INTS)) throw UNSURE;
        if (this.afterItem(CLOSE_BRACKET)) break;
      }
    this.ints[slot + 1] = count;
  }

  /**
   * An object of kind `object` (ENTRY ... PAIR): its judged members are read by member(), any other member's value
   * is checked and passed over. Returns which judged names it held, a bit each.
   */
  private object(object: number, base: number): number {
    if (this.byteAt(this.at) !== OPEN_BRACE) throw UNSURE;
    this.at++;
    let seen = 0;
    this.whitespace();
    if (this.byteAt(this.at) === CLOSE_BRACE) {
      this.at++;
      return seen;
    }
    for (;;) {
      this.whitespace();
      if (this.byteAt(this.at) !== QUOTE) throw UNSURE;
      const key = this.key(object);
      this.whitespace();
      if (this.byteAt(this.at) !== COLON) throw UNSURE;
      this.at++;
      this.whitespace();
      if (key === -1) this.value(1);
      else {
        // JSON.parse keeps the last of a name written twice: rare enough to leave to it.
        if ((seen & (1 << key)) !== 0) throw UNSURE;
        seen |= 1 << key;
        this.member(object, key, base);
      }
      if (this.afterItem(CLOSE_BRACE)) return seen;
    }
  }

  /** Whether the leaf at `slot` is a string. */
  private isString(slot: number): boolean {
    const kind = this.ints[slot];
    return kind === PLAIN || (kind === JSON_VALUE && this.bytes[this.base + (this.ints[slot + 1] as number)] === QUOTE);
  }

  /** Whether the leaf at `slot` is an object or an array. */
  private isContainer(slot: number): boolean {
    const first = this.bytes[this.base + (this.ints[slot + 1] as number)];
    return this.ints[slot] === JSON_VALUE && (first === OPEN_BRACE || first === OPEN_BRACKET);
  }

  /** After a member or element: true at the container's end, false after a comma. */
  private afterItem(close: number): boolean {
    this.whitespace();
    const code = this.byteAt(this.at);
    this.at++;
    if (code === COMMA) return false;
    if (code === close) return true;
    throw UNSURE;
  }

  /** A member's name: its place in the NAMES of objects of kind `object`, or -1 for another. */
  private key(object: number): number {
    const start = this.at + 1;
    if (this.string() !== PLAIN) {
      // A name written with escapes might spell a judged one.
      for (let at = start; at < this.at - 1; at++) if (this.bytes[at] === BACKSLASH) throw UNSURE;
      return -1;
    }
    const length = this.at - 1 - start;
    if (length === 0 || length > LONGEST_NAME) return -1;
    // A PLAIN name is ASCII: its first byte is below 128.
    const index = NAME_BY_LENGTH_AND_FIRST[object]![nameAt(length, this.bytes[start] as number)] as number;
    if (index === -1) return -1;
    const name = NAMES[object]![index] as Uint8Array;
    for (let offset = 1; offset < length; offset++) if (this.bytes[start + offset] !== name[offset]) return -1;
    return index;
  }

  /** A judged value at `slot`: its kind and where its text is. */
  private leaf(slot: number): void {
    const start = this.at;
    const code = this.byteAt(start);
    let kind: number;
    if (code === QUOTE) {
      kind = this.string();
      if (kind === PLAIN) {
        this.ints[slot] = PLAIN;
        this.ints[slot + 1] = start + 1 - this.base;
        this.ints[slot + 2] = this.at - 1 - this.base;
        return;
      }
    } else if (code === MINUS || isDigit(code)) {
      this.number();
      const whole = this.wholeNumber(start);
      kind = whole === -1 ? NUMBER : WHOLE_NUMBER;
      if (kind === WHOLE_NUMBER) this.ints[slot + WHOLE] = whole;
    } else {
      this.value(1);
      kind = JSON_VALUE;
    }
    this.ints[slot] = kind;
    this.ints[slot + 1] = start - this.base;
    this.ints[slot + 2] = this.at - this.base;
  }

  /** The value of the number from `start` to here, where it is a WHOLE_NUMBER; else -1. */
  private wholeNumber(start: number): number {
    if (this.at - start > MOST_WHOLE_DIGITS) return -1;
    let value = 0;
    for (let at = start; at < this.at; at++) {
      const digit = (this.bytes[at] as number) - 48;
      if (digit < 0 || digit > 9) return -1;
      value = value * 10 + digit;
    }
    return value;
  }

  /** Any JSON value, checked and passed over. */
  private value(depth: number): void {
    if (depth > MAX_DEPTH) throw UNSURE;
    const code = this.byteAt(this.at);
    if (code === QUOTE) this.string();
    else if (code === MINUS || isDigit(code)) this.number();
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.container(code === OPEN_BRACE, depth);
    else if (code === 116) this.literal('true');
    else if (code === 102) this.literal('false');
    else if (code === 110) this.literal('null');
    else throw UNSURE;
  }

  private container(isObject: boolean, depth: number): void {
    this.at++;
    this.whitespace();
    if (this.byteAt(this.at) === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
      this.at++;
      return;
    }
    for (;;) {
      this.whitespace();
      if (isObject) {
        if (this.byteAt(this.at) !== QUOTE) throw UNSURE;
        this.string();
        this.whitespace();
        if (this.byteAt(this.at) !== COLON) throw UNSURE;
        this.at++;
        this.whitespace();
      }
      this.value(depth + 1);
      if (this.afterItem(isObject ? CLOSE_BRACE : CLOSE_BRACKET)) return;
    }
  }

  /** A string, from its opening quote to past its closing one: PLAIN, or JSON_VALUE where it holds an escape or a byte beyond ASCII. */
  private string(): number {
    const bytes = this.bytes;
    const words = this.words;
    const end = this.end;
    let at = this.at + 1;
    let kind = PLAIN;
    for (;;) {
      // Most bytes of a string are none of those that matter: four at a time pass them, and the first that matters is
      // found in the word without a loop. A byte at a time (one look-up each), the reader alone took about 0.17 CPU-s
      // more over the bench HAR (1.73 s against 1.56 s). The last few bytes before `end` are looked up one by one.
      let stops = 0;
      while (at + 4 <= end && (stops = stopsIn(words.getInt32(at, true))) === 0) at += 4;
      if (stops !== 0) at += firstStop(stops);
      else while (at < end && STRING_BYTE[bytes[at] as number] === ORDINARY) at++;
      if (at >= end) throw UNSURE;
      const code = bytes[at] as number;
      if (code === QUOTE) break;
      if (code < 0x20) throw UNSURE;
      if (code === BACKSLASH) {
        kind = JSON_VALUE;
        const escaped = this.byteAt(at + 1);
        if (escaped === 117) {
          for (let digit = at + 2; digit < at + 6; digit++) if (!isHex(this.byteAt(digit))) throw UNSURE;
          at += 6;
        } else if (isSimpleEscape(escaped)) at += 2;
        else throw UNSURE;
        continue;
      }
      if (code >= 0x80) kind = JSON_VALUE;
      at++;
    }
    this.at = at + 1;
    return kind;
  }

  /** -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
  private number(): void {
    let at = this.at;
    if (this.byteAt(at) === MINUS) at++;
    if (this.byteAt(at) === 48) at++;
    else if (isDigit(this.byteAt(at))) while (isDigit(this.byteAt(at))) at++;
    else throw UNSURE;
    if (this.byteAt(at) === DOT) {
      at++;
      if (!isDigit(this.byteAt(at))) throw UNSURE;
      while (isDigit(this.byteAt(at))) at++;
    }
    if (this.byteAt(at) === 101 || this.byteAt(at) === 69) {
      at++;
      if (this.byteAt(at) === PLUS || this.byteAt(at) === MINUS) at++;
      if (!isDigit(this.byteAt(at))) throw UNSURE;
      while (isDigit(this.byteAt(at))) at++;
    }
    this.at = at;
  }

  private literal(word: string): void {
    for (let offset = 0; offset < word.length; offset++) if (this.byteAt(this.at + offset) !== word.charCodeAt(offset)) throw UNSURE;
    this.at += word.length;
  }

  private whitespace(): void {
    const bytes = this.bytes;
    const end = this.end;
    let at = this.at;
    while (at < end) {
      const code = bytes[at] as number;
      // Most calls find no whitespace: any byte above the space ends it at one test, where four tests had cost the
      // reader alone about 0.04 CPU-s more over the bench HAR (1.46 s against 1.42 s). Passing indentation four
      // spaces at a time saved no more.
      if (code > 32) break;
      if (code === 32 || code === 10 || code === 13 || code === 9) at++;
      else break;
    }
    this.at = at;
  }

  /** The byte at `at`, or -1 past the bytes the entry may hold: no read goes beyond them. */
  private byteAt(at: number): number {
    return at < this.end ? (this.bytes[at] as number) : -1;
  }
}
