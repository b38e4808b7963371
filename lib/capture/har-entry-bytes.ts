/**
 * What passes between the thread judging a large HAR and the worker reading it (har-in-worker.ts,
 * har-reading-worker.ts): one file, so each side imports the other's words without importing the other.
 */

/** The length of an entry's SHA-1 in EntryBytes.fingerprints. */
export const FINGERPRINT_BYTES = 20;

/**
 * What the worker posts: a chunk's entries (the chunk's UTF-8 bytes, and where each entry starts and ends), the end of
 * the document, or why reading stopped. Bytes are handed over, not copied; the judging thread decodes each entry
 * as its turn comes (strings posted would each be copied again on arrival, which cost it more than finding them).
 */
export type FromHarReader = { entries: EntryBytes } | { done: true } | { failed: { format: boolean; message: string; code: string | undefined } };

export interface EntryBytes {
  bytes: Uint8Array<ArrayBuffer>;
  /** Where each entry starts in `bytes`, and where it ends (between entries: the document's commas and whitespace). */
  starts: Uint32Array<ArrayBuffer>;
  ends: Uint32Array<ArrayBuffer>;
  /**
   * Each entry's SHA-1 (FINGERPRINT_BYTES each, in order): what tells an entry written twice (repeated-lines.ts), taken by the worker
   * from the bytes as written rather than on the judging thread.
   */
  fingerprints: Uint8Array<ArrayBuffer>;
  /** Where the judge's fields sit in each entry (judged-field-index.ts), where the reader was asked for them. */
  judgedFields?: JudgedFieldRecords;
}

export interface JudgedFieldRecords {
  /** Each entry's record in `records`, or -1 for an entry to be parsed whole. */
  at: Int32Array<ArrayBuffer>;
  records: Int32Array<ArrayBuffer>;
}

/**
 * What the worker is asked: the file, and whether to find the judge's fields in each entry. `taken`: one Int32, how
 * many chunks the judging thread has taken, which it counts up and the worker waits on (Atomics): a message per chunk
 * taken cost the judging thread a few milliseconds each on a busy machine.
 */
export interface HarReading {
  path: string;
  judgedFields: boolean;
  taken: Int32Array<SharedArrayBuffer>;
}
