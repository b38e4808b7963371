/**
 * Lines a capture holds twice: at-least-once log shipping writes a line again, and re-sends a whole batch seconds or
 * a minute later. An entry with the same request, time and answer as one already read is the same exchange: it is
 * counted once, and how many were dropped is said in the report. A repeat is recognised within a bounded span of the
 * capture's time (the latest answer read so far), so memory stays bounded however long the capture; a batch re-sent
 * later than that is out of order, and refused as such.
 */
import { sha1Into } from '../../lib/capture/fingerprint.ts';
import { FINGERPRINT_BYTES } from '../../lib/capture/har-entry-bytes.ts';
import { FingerprintQueue } from './fingerprint-queue.ts';

/** How far back a re-sent line is still known: longer than log shippers wait before re-sending a batch. */
export const REPEATS_WITHIN_MS = 15 * 60_000;

export class RepeatedLines {
  private readonly remembered = new FingerprintQueue();
  /** The SHA-1 of the text asked about last: FingerprintQueue copies what it remembers. */
  private readonly textFingerprint = new Uint8Array(FINGERPRINT_BYTES);
  private latest = -Infinity;
  dropped = 0;

  /**
   * Whether an entry, by its `text` as written (answered at `at`, ms), repeats one read within the span; the first
   * time it is remembered. The text is the line itself, not the entry parsed and written again: a repeat is a line
   * shipped twice as it was written, and writing each entry out once more cost the judge a tenth of its time.
   * Whitespace around it is not the line: a shipper may re-send it with a CRLF ending, or as a file's last line.
   */
  repeats(text: string, at: number): boolean {
    sha1Into(text.trim(), this.textFingerprint, 0);
    return this.fingerprintRepeats(this.textFingerprint, 0, at);
  }

  /**
   * The same, by the SHA-1 of the entry's bytes where the reader took it already (a HAR's entry has no whitespace
   * around it), FINGERPRINT_BYTES from `from` in `fingerprints`: the same as that of its text, which need not then
   * be made, nor any string.
   */
  fingerprintRepeats(fingerprints: Uint8Array, from: number, at: number): boolean {
    if (this.remembered.remembers(fingerprints, from, at)) {
      this.dropped++;
      return true;
    }
    if (at > this.latest) this.latest = at;
    const reach = this.latest - REPEATS_WITHIN_MS;
    for (let oldest = this.remembered.oldestTime; oldest !== undefined && oldest < reach; oldest = this.remembered.oldestTime) this.remembered.forgetOldest();
    return false;
  }
}

/** How many lines repeated one already read (the same request, time and answer), and were counted once. */
export function repeatsText(dropped: number): string {
  return dropped === 0 ? '' : `, ${dropped.toLocaleString('en-US')} ${dropped === 1 ? 'line that repeated one' : 'lines that repeated ones'} already read counted once`;
}
