/**
 * SHA-1 fingerprints remembered in the order added, each with a time, forgotten oldest first: what RepeatedLines
 * keeps. Held as bytes, not strings: a Set of base64 strings made one string per entry read and cost a judge of a
 * large capture a twentieth of its judging thread, in the strings, the Set and their collection. The fingerprints sit
 * in a ring (their bytes, times and first four bytes, which a SHA-1 spreads evenly, so they are the hash), found by
 * an open-addressed table of ring slots with linear probing, kept at most half full.
 */
import { FINGERPRINT_BYTES } from '../../lib/capture/har-entry-bytes.ts';

const FIRST_CAPACITY = 1024;

export class FingerprintQueue {
  private capacity = FIRST_CAPACITY;
  private bytes = new Uint8Array(FIRST_CAPACITY * FINGERPRINT_BYTES);
  private times = new Float64Array(FIRST_CAPACITY);
  private hashes = new Int32Array(FIRST_CAPACITY);
  /** Per cell: a ring slot + 1, or 0 where empty. Twice the ring's capacity. */
  private cells = new Int32Array(FIRST_CAPACITY * 2);
  private head = 0;
  private count = 0;

  /**
   * Whether the fingerprint at `from` in `source` is remembered; if not, it is remembered from now, added at `time`.
   * One probe of the table either way.
   */
  remembers(source: Uint8Array, from: number, time: number): boolean {
    if (this.count === this.capacity) this.grow();
    const hash = hashOf(source, from);
    const mask = this.cells.length - 1;
    let cell = hash & mask;
    for (let held = this.cells[cell] as number; held !== 0; held = this.cells[cell] as number) {
      if (this.hashes[held - 1] === hash && this.holds(held - 1, source, from)) return true;
      cell = (cell + 1) & mask;
    }
    const slot = (this.head + this.count) & (this.capacity - 1);
    const at = slot * FINGERPRINT_BYTES;
    for (let index = 0; index < FINGERPRINT_BYTES; index++) this.bytes[at + index] = source[from + index] as number;
    this.times[slot] = time;
    this.hashes[slot] = hash;
    this.cells[cell] = slot + 1;
    this.count++;
    return false;
  }

  /** The time of the oldest fingerprint remembered; undefined when none is. */
  get oldestTime(): number | undefined {
    return this.count === 0 ? undefined : (this.times[this.head] as number);
  }

  /** Forgets the oldest fingerprint. */
  forgetOldest(): void {
    const slot = this.head;
    const mask = this.cells.length - 1;
    let cell = (this.hashes[slot] as number) & mask;
    while (this.cells[cell] !== slot + 1) cell = (cell + 1) & mask;
    this.empty(cell);
    this.head = (this.head + 1) & (this.capacity - 1);
    this.count--;
  }

  private holds(slot: number, source: Uint8Array, from: number): boolean {
    const at = slot * FINGERPRINT_BYTES;
    for (let index = 0; index < FINGERPRINT_BYTES; index++) if (this.bytes[at + index] !== source[from + index]) return false;
    return true;
  }

  private place(slot: number): void {
    const mask = this.cells.length - 1;
    let cell = (this.hashes[slot] as number) & mask;
    while (this.cells[cell] !== 0) cell = (cell + 1) & mask;
    this.cells[cell] = slot + 1;
  }

  /** Empties a cell, moving back the cells after it that probing would no longer reach (linear probing's deletion). */
  private empty(cell: number): void {
    const mask = this.cells.length - 1;
    let hole = cell;
    for (let next = (hole + 1) & mask; this.cells[next] !== 0; next = (next + 1) & mask) {
      const home = (this.hashes[(this.cells[next] as number) - 1] as number) & mask;
      // The cell at `next` may move to the hole when its home is not cyclically within (hole, next].
      const reachable = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (reachable) continue;
      this.cells[hole] = this.cells[next] as number;
      hole = next;
    }
    this.cells[hole] = 0;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const bytes = new Uint8Array(capacity * FINGERPRINT_BYTES);
    const times = new Float64Array(capacity);
    const hashes = new Int32Array(capacity);
    for (let index = 0; index < this.count; index++) {
      const slot = (this.head + index) & (this.capacity - 1);
      bytes.set(this.bytes.subarray(slot * FINGERPRINT_BYTES, (slot + 1) * FINGERPRINT_BYTES), index * FINGERPRINT_BYTES);
      times[index] = this.times[slot] as number;
      hashes[index] = this.hashes[slot] as number;
    }
    this.capacity = capacity;
    this.bytes = bytes;
    this.times = times;
    this.hashes = hashes;
    this.cells = new Int32Array(capacity * 2);
    this.head = 0;
    for (let slot = 0; slot < this.count; slot++) this.place(slot);
  }
}

/** The first four bytes of a SHA-1 (spread evenly already), as a positive Int32. */
function hashOf(source: Uint8Array, from: number): number {
  return (source[from] as number) | ((source[from + 1] as number) << 8) | ((source[from + 2] as number) << 16) | (((source[from + 3] as number) & 0x7f) << 24);
}
