/**
 * An entry's startedDateTime read as a time (captureTimeMs) on the reading thread, its record then holding the
 * milliseconds rather than where the text sits: the judging thread no longer makes a string of it (one per entry,
 * seldom recurring) nor reads its digits, about 3% of its CPU over the bench HAR (200,000 entries), for ~0.06 CPU-s
 * of the reading thread's, which has room. Only a time read as whole milliseconds is held so; any other value (not a
 * string, not a date) is left as it is written, for the judge to read, or refuse, as it reads an entry parsed whole.
 */
import { captureTimeMs } from '../capture-time.ts';
import { LEAF, LEAF_INTS, PLAIN, STARTED_MS } from './judged-field-index.ts';

/**
 * The member of a JudgedHarEntry that holds startedDateTime's milliseconds where the reading thread read them: a symbol,
 * which no entry parsed from JSON holds, so that only the reader's reading is taken for one.
 */
export const STARTED_MS_READ: unique symbol = Symbol('startedDateTime read as a time');

/** Longer than any time ISO 8601 writes: a longer text is left to the judging thread. */
const LONGEST_TIME = 40;
const TWO_TO_32 = 2 ** 32;

/**
 * The milliseconds of a startedDateTime's text, where it is a time read as whole milliseconds; else undefined. What a
 * JudgedHarEntry's [STARTED_MS_READ] holds (judged-fields.ts).
 */
export function startedMsOf(text: string): number | undefined {
  const ms = captureTimeMs(text);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Reads the startedDateTime of the record at `records[record]` (its strings decoded, its offsets rebased into `bytes`). */
export function readStartedInPlace(records: Int32Array, record: number, bytes: Buffer): void {
  const leaf = record + LEAF.startedDateTime * LEAF_INTS;
  const start = records[leaf + 1] as number;
  const end = records[leaf + 2] as number;
  if (records[leaf] !== PLAIN || end - start > LONGEST_TIME) return;
  const ms = startedMsOf(bytes.toString('latin1', start, end));
  if (ms === undefined) return;
  const high = Math.floor(ms / TWO_TO_32);
  records[leaf] = STARTED_MS;
  records[leaf + 1] = high;
  records[leaf + 2] = ms - high * TWO_TO_32;
}

/** The milliseconds a STARTED_MS leaf from `leaf` holds. */
export function startedMsAt(records: Int32Array, leaf: number): number {
  return (records[leaf + 1] as number) * TWO_TO_32 + ((records[leaf + 2] as number) >>> 0);
}
