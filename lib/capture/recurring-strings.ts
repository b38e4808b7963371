/**
 * Short ASCII strings read from a large HAR's bytes, made once and given again while they recur: a header's name,
 * a key, "application/json", a method, a URL, written on entry after entry. Slicing each afresh cost the judging
 * thread a C++ call and an allocation per field, their collection, and, in the judge's memos keyed by those strings,
 * the hash of each new string; a string given again has its hash already. The strings sit in a table by a hash of
 * their bytes, a newer one taking the place of an older: memory stays that of TABLE_SIZE short strings.
 */
/** Buffer's own latin1Slice, without toString's checks and look-up of the encoding by name (judged-fields.ts). */
type LatinSliced = Buffer & { latin1Slice(start: number, end: number): string };

/** Longer strings (a body, a long URL) are sliced each time: comparing them costs about as much, and they recur less. */
const LONGEST = 96;
const TABLE_SIZE = 4096;

export class RecurringStrings {
  private readonly strings = new Array<string | undefined>(TABLE_SIZE).fill(undefined);

  /** The ASCII text of `bytes` from `start` to `end`, the same string as last time where it recurs. */
  of(bytes: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > LONGEST) return (bytes as LatinSliced).latin1Slice(start, end);
    let hash = length;
    for (let at = start; at < end; at++) hash = (Math.imul(hash, 31) + (bytes[at] as number)) | 0;
    const slot = (hash ^ (hash >>> 12)) & (TABLE_SIZE - 1);
    const held = this.strings[slot];
    if (held !== undefined && held.length === length && sameText(held, bytes, start)) return held;
    const made = (bytes as LatinSliced).latin1Slice(start, end);
    this.strings[slot] = made;
    return made;
  }
}

function sameText(text: string, bytes: Uint8Array, start: number): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) !== bytes[start + index]) return false;
  return true;
}
