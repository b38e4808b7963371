/**
 * What the run remembers of a key's refusals, across its tests and its workers: until when its last 429 asked it
 * to wait (with the backoff the client added), and how many 429s came in a row. The polite client (client.ts)
 * waits for it before any request on the key. So a test that gave up on a 429, or the next test on the same key,
 * never sends before that wait is over (ERR-3), and the backoff keeps growing from one test to the next while the
 * refusals go on (ERR-4). Kept in the key's lease folder (leases.ts), so every worker reads the same file.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

interface Rest {
  /** Ms since the epoch before which the key sends nothing. */
  untilMs: number;
  inARow: number;
}

const NONE: Rest = { untilMs: 0, inARow: 0 };

export class KeyRest {
  constructor(private readonly file: string) {}

  /** Ms since the epoch before which the key sends nothing (0: it may send now). */
  untilMs(): number {
    return this.read().untilMs;
  }

  /**
   * Another 429 on the key: the key rests for `delayOf(its refusals in a row, this one included)` from now, or
   * longer if another test already asked for longer. Returns that delay.
   */
  refused(delayOf: (inARow: number) => number): number {
    const rest = this.read();
    const inARow = rest.inARow + 1;
    const delay = delayOf(inARow);
    this.write({ untilMs: Math.max(rest.untilMs, Date.now() + delay), inARow });
    return delay;
  }

  /** An answer other than 429: the run of refusals is over (a wait another worker was given still holds). */
  answered(): void {
    const rest = this.read();
    if (rest.inARow > 0) this.write({ untilMs: rest.untilMs, inARow: 0 });
  }

  private read(): Rest {
    try {
      const [until, inARow] = readFileSync(this.file, 'utf8').split(' ').map(Number);
      return { untilMs: Number.isFinite(until) ? (until as number) : 0, inARow: Number.isFinite(inARow) ? (inARow as number) : 0 };
    } catch {
      return NONE;
    }
  }

  private write(rest: Rest): void {
    // Written whole and renamed into place, so a worker reading at the same moment never sees half of it.
    const draft = `${this.file}.${process.pid}`;
    writeFileSync(draft, `${rest.untilMs} ${rest.inARow}`);
    renameSync(draft, this.file);
  }
}
