/**
 * What the run remembers of a key's refusals, across its tests and its workers: until when its last 429 asked it
 * to wait (with the backoff the client added), and how many 429s came in a row. The polite client (client.ts)
 * waits for it before any request on the key. So a test that gave up on a 429, or the next test on the same key,
 * never sends before that wait is over (ERR-3), and the backoff keeps growing from one test to the next while the
 * refusals go on (ERR-4). Kept in the key's lease folder (leases.ts), so every worker reads the same file.
 *
 * Once the wait is over, a refused key sends one request, the retry, and its other requests in this process wait
 * for the retry's answer (as the load engine's KeyDriver does): requests refused together never go out again
 * together, into a refusal the retry would have shown. Workers each hold their own retry: the file says when a
 * key may send, not who sends.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

interface Rest {
  /** Ms since the epoch before which the key sends nothing. */
  untilMs: number;
  inARow: number;
}

const NONE: Rest = { untilMs: 0, inARow: 0 };

/** The retry out on each key in this process, by its file, while it is unanswered: it settles with the answer. */
const retriesOut = new Map<string, Promise<void>>();

export class KeyRest {
  constructor(private readonly file: string) {}

  /** Ms since the epoch before which the key sends nothing (0: it may send now). */
  untilMs(): number {
    return this.read().untilMs;
  }

  /** The 429s that came in a row on the key, up to now (0: its last answer was not a refusal). */
  refusalsInARow(): number {
    return this.read().inARow;
  }

  /**
   * Another 429 on the key, to a request sent when `inARowWhenSent` had come in a row: the key rests for
   * `delayOf(its refusals in a row, this one included)` from now, or longer if another request already asked for
   * longer. A 429 to a request that was on its way when another 429 came (more in a row now than when it was sent)
   * is the same refusal, not one more: twenty creates refused together do not back off as twenty retries would.
   * Returns the delay.
   */
  refused(delayOf: (inARow: number) => number, inARowWhenSent: number): number {
    const rest = this.read();
    const inARow = rest.inARow > inARowWhenSent ? rest.inARow : rest.inARow + 1;
    const delay = delayOf(inARow);
    this.write({ untilMs: Math.max(rest.untilMs, Date.now() + delay), inARow });
    return delay;
  }

  /** An answer other than 429: the run of refusals is over (a wait another worker was given still holds). */
  answered(): void {
    const rest = this.read();
    if (rest.inARow > 0) this.write({ untilMs: rest.untilMs, inARow: 0 });
  }

  /** The retry out on the key in this process, settling once it is answered; undefined when none is. */
  retryOut(): Promise<void> | undefined {
    return retriesOut.get(this.file);
  }

  /** Marks a retry as out on the key; call what it returns once the retry is answered (or failed), after `refused`/`answered`. */
  sendingRetry(): () => void {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    retriesOut.set(this.file, answered);
    return () => {
      // Only this retry's own mark is taken off: a newer retry's stays.
      if (retriesOut.get(this.file) === answered) retriesOut.delete(this.file);
      answer();
    };
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
