/**
 * A walked entry's record made ready for the judging thread (judged-fields.ts), in the order both threads rely on:
 * its offsets moved to where the entry sits in the bytes posted; its recurring texts placed by the text as written,
 * in step with the judging thread's table; then its strings decoded in place (all but those held already, which the
 * judging thread reads from its table); then its startedDateTime read as a time.
 */
import { placeRecurring, rebase } from './judged-field-index.ts';
import type { RecurringBytes } from './recurring-strings.ts';
import { readStartedInPlace } from './started-read-in-place.ts';
import { decodeStringsInPlace } from './strings-decoded-in-place.ts';

export function readyForJudging(records: Int32Array, record: number, entryStart: number, bytes: Buffer, table: RecurringBytes): void {
  rebase(records, record, entryStart);
  placeRecurring(records, record, bytes, table);
  decodeStringsInPlace(records, record, bytes);
  readStartedInPlace(records, record, bytes);
}
