/**
 * What the run remembers of a key's refusals, across its tests and its workers: until when its last 429 asked it
 * to wait (with the backoff the client added), and how many 429s came in a row. The polite client (client.ts)
 * waits for it before any request on the key. So a test that gave up on a 429, or the next test on the same key,
 * never sends before that wait is over (ERR-3), and the backoff keeps growing from one test to the next while the
 * refusals go on (ERR-4). Kept in the key's lease folder (leases.ts), so every worker reads the same file.
 *
 * Once the wait is over, a refused key sends one request, the retry, and its other requests in every worker wait
 * for the retry's answer (as the load engine's KeyDriver does): requests refused together never go out again
 * together, into a refusal the retry would have shown. The retry's slot is a file beside the rest, made with an
 * exclusive create by the worker that sends it and holding its pid and deadline; it is taken back when that
 * worker died or the deadline passed, as a dead worker's lease is (leases.ts).
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import type { TargetClock } from '../../lib/target-clock.ts';
import type { Transport } from './exchange.ts';
import { processIsAlive } from './process-alive.ts';

interface Rest {
  /** Ms since the epoch before which the key sends nothing. */
  untilMs: number;
  inARow: number;
}

const NONE: Rest = { untilMs: 0, inARow: 0 };

/** Retry slots claimed by this process, told apart from each other in the slot file. */
let claims = 0;

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

  /**
   * A wait the key was asked for, up to `untilMs` (real ms since the epoch), before the client has seen the 429 that
   * asked it: the refusals in a row are the client's to count (`refused`).
   */
  askedToWait(untilMs: number): void {
    const rest = this.read();
    if (untilMs > rest.untilMs) this.write({ untilMs, inARow: rest.inARow });
  }

  /**
   * Claims the key's retry for this process until it is answered, or at the latest until `deadlineMs` (real ms
   * since the epoch; Infinity: until this process ends): call what it returns once the retry is answered (or
   * failed), after `refused`/`answered`. Undefined while another request's retry on the key, in any worker, is out.
   */
  claimRetry(deadlineMs: number): (() => void) | undefined {
    const slot = this.slot();
    const mine = `${process.pid} ${deadlineMs} ${++claims}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(slot, 'wx');
        writeSync(fd, mine);
        closeSync(fd);
        return () => {
          // Only this retry's own claim is taken off: a newer one, made after this one was taken back, stays.
          if (readOr(slot, '') === mine) rmSync(slot, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (!this.takeBackIfLapsed(slot)) return undefined;
      }
    }
    return undefined;
  }

  /**
   * Removes a retry slot whose process is gone or whose deadline passed; true when it did. An empty slot is one
   * being written, unless it was made long ago (its process died between making and writing it).
   */
  private takeBackIfLapsed(slot: string): boolean {
    const [pid, deadline] = readOr(slot, '').split(' ').map(Number);
    const lapsed = Number.isInteger(pid) && (pid as number) > 0 ? !processIsAlive(pid as number) || (deadline as number) < Date.now() : madeBefore(slot, Date.now() - SLOT_WRITTEN_MS);
    if (!lapsed) return false;
    rmSync(slot, { force: true });
    return true;
  }

  private slot(): string {
    return `${this.file}${RETRY_SLOT_SUFFIX}`;
  }

  private read(): Rest {
    const text = readOr(this.file, undefined);
    if (text === undefined) return NONE;
    const [until, inARow] = text.split(' ').map(Number);
    return { untilMs: Number.isFinite(until) ? (until as number) : 0, inARow: Number.isFinite(inARow) ? (inARow as number) : 0 };
  }

  private write(rest: Rest): void {
    // Written whole and renamed into place, so a worker reading at the same moment never sees half of it.
    const draft = `${this.file}.${process.pid}`;
    writeFileSync(draft, `${rest.untilMs} ${rest.inARow}`);
    renameSync(draft, this.file);
  }
}

/** The retry slot's file, beside the rest's: `rest.retry`. */
const RETRY_SLOT_SUFFIX = '.retry';

/** Ample time for a slot made to be written (real ms): one still empty after it will never be. */
const SLOT_WRITTEN_MS = 1_000;

/**
 * The transport, putting every 429's Retry-After into the key's rest as it arrives: a hook above it that ends the
 * test on that 429 (a spent, banned or misconfigured key: test.ts's spent.watch) leaves the key resting, so no
 * later request on it, this test's or another's, goes before the wait it was asked.
 */
export function restingOnRefusals(transport: Transport, rest: KeyRest, clock: TargetClock): Transport {
  return {
    async send(request) {
      const response = await transport.send(request);
      if (response.status !== 429) return response;
      const asked = retryAfterMs(response.headers['retry-after'], clock.now());
      if (asked !== undefined) rest.askedToWait(Date.now() + clock.toRealMs(asked));
      return response;
    },
  };
}

function madeBefore(file: string, ms: number): boolean {
  try {
    return statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

function readOr<T>(file: string, missing: T): string | T {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return missing;
  }
}
