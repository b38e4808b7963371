/**
 * Key leases across the run's workers, kept as files in a run-scoped folder (never the key itself: its
 * SHA-256). A test that measures a quota holds its key exclusively; functional tests hold the key they share
 * in common mode. An exclusive lease waits for common holders to leave and, while it waits, lets no new one
 * in, so a measurement is never disturbed and never starved. A lease whose process died is taken back.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../../lib/backoff.ts';
import { KeyRest } from './key-rest.ts';
import { processIsAlive } from './process-alive.ts';

export interface Lease {
  key: string;
  release(): void;
}

export interface LeaseOptions {
  /** How often a waiting lease looks again. */
  pollMs?: number;
  signal?: AbortSignal;
  /** Whether a process is still running; injectable for tests. */
  isAlive?: (pid: number) => boolean;
  pid?: number;
}

const EXCLUSIVE = 'exclusive';
const COMMON_PREFIX = 'common-';
const EXHAUSTED = 'exhausted';
const SPENT = 'spent';
/** The key answers as another plan's (misconfigured-keys.ts): the annotation that says so. */
const MISCONFIGURED = 'misconfigured';
/** When a lease on the key was last given back (ms since the epoch): a key left alone longest is the likeliest to have a fresh window. */
const USED = 'used';
/** Requests the target admitted on the key in one process of the run: `admitted-<pid>`, written as leases are given back. */
const ADMITTED_PREFIX = 'admitted-';
/** When this process first counted an admitted request on the key (real ms): a file per process. */
const FIRST_ADMITTED_PREFIX = 'first-admitted-';
const REST = 'rest';

export class KeyLeases {
  private readonly pollMs: number;
  private readonly isAlive: (pid: number) => boolean;
  private readonly pid: number;
  private sequence = 0;
  private readonly heldInCommon = new Map<string, number>();
  private readonly admittedHere = new Map<string, number>();
  private readonly firstAdmittedHere = new Map<string, number>();

  constructor(
    private readonly dir: string,
    options: LeaseOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 20;
    this.isAlive = options.isAlive ?? processIsAlive;
    this.pid = options.pid ?? process.pid;
  }

  /**
   * An exclusive lease on the first of `candidates` that can be had, in their order of preference; waits
   * while all are held. Keys whose day is used up are taken only when nothing else is left.
   */
  async exclusive(candidates: readonly string[], signal?: AbortSignal): Promise<Lease> {
    // A key this process holds in common would wait for itself.
    const usable = candidates.filter((key) => !this.heldInCommon.has(key));
    if (usable.length === 0) throw new Error('no key to lease exclusively: the candidates are held in common by this test');
    for (;;) {
      const rested = this.leastRecentlyUsedFirst(usable);
      const ordered = [...rested.filter((key) => !this.isExhausted(key)), ...rested.filter((key) => this.isExhausted(key))];
      for (const key of ordered) {
        if (!this.tryClaimExclusive(key)) continue;
        const release = (): void => {
          this.removeOwned(path.join(this.folder(key), EXCLUSIVE));
          this.markUsed(key);
        };
        try {
          await this.waitForCommonHolders(key, signal);
        } catch (error) {
          release();
          throw error;
        }
        return { key, release };
      }
      signal?.throwIfAborted();
      await sleep(this.pollMs, signal);
    }
  }

  /** A common lease: many holders at once, none while an exclusive lease is held or awaited. */
  async common(key: string, signal?: AbortSignal): Promise<Lease> {
    return this.commonOnAny([key], signal);
  }

  /**
   * A common lease on whichever of `candidates` no exclusive lease holds or awaits, the one used last first: a
   * single request need not wait for a measurement on one key while another is idle, and it spends a window
   * that is no longer fresh rather than the one a measurement could still find fresh.
   */
  async commonOnAny(candidates: readonly string[], signal?: AbortSignal): Promise<Lease> {
    for (;;) {
      for (const key of this.leastRecentlyUsedFirst(candidates).reverse()) {
        const lease = this.tryCommon(key);
        if (lease) return lease;
      }
      signal?.throwIfAborted();
      await sleep(this.pollMs, signal);
    }
  }

  private tryCommon(key: string): Lease | undefined {
    if (this.exclusiveHeld(key)) return undefined;
    const file = path.join(this.folder(key), `${COMMON_PREFIX}${this.pid}-${++this.sequence}`);
    writeFileSync(file, String(this.pid));
    // The exclusive holder may have claimed the key between the look and the write; it then waits for this
    // file to go, so step back rather than let it wait.
    if (this.exclusiveHeld(key)) {
      rmSync(file, { force: true });
      return undefined;
    }
    this.heldInCommon.set(key, (this.heldInCommon.get(key) ?? 0) + 1);
    return { key, release: () => this.releaseCommon(key, file) };
  }

  /** Keys in the order of their last use, never-used ones first; the given order among equals. */
  private leastRecentlyUsedFirst(keys: readonly string[]): string[] {
    const lastUse = new Map(keys.map((key) => [key, this.lastUsed(key)]));
    return [...keys].sort((a, b) => lastUse.get(a)! - lastUse.get(b)!);
  }

  private lastUsed(key: string): number {
    try {
      return Number(readFileSync(path.join(this.folder(key), USED), 'utf8')) || 0;
    } catch {
      return 0;
    }
  }

  private markUsed(key: string): void {
    writeFileSync(path.join(this.folder(key), USED), String(Date.now()));
    const admitted = this.admittedHere.get(key);
    if (admitted !== undefined) writeFileSync(path.join(this.folder(key), `${ADMITTED_PREFIX}${this.pid}`), String(admitted));
    const first = this.firstAdmittedHere.get(key);
    if (first !== undefined) writeFileSync(path.join(this.folder(key), `${FIRST_ADMITTED_PREFIX}${this.pid}`), String(first));
  }

  /** Counts a request the target admitted on `key` in this process; the count is shared as the lease is given back. */
  countAdmitted(key: string): void {
    this.admittedHere.set(key, (this.admittedHere.get(key) ?? 0) + 1);
    if (!this.firstAdmittedHere.has(key)) this.firstAdmittedHere.set(key, Date.now());
  }

  /** Requests admitted on `key` so far in the whole run, by every test whose lease on it was given back. */
  admittedInRun(key: string): number {
    const folder = this.folder(key);
    return readdirSync(folder)
      .filter((name) => name.startsWith(ADMITTED_PREFIX))
      .reduce((sum, name) => sum + (Number(readFileSync(path.join(folder, name), 'utf8')) || 0), 0);
  }

  /**
   * When the first request counted in admittedInRun was admitted (real ms), if any was: a day that began anew after it
   * may have dropped those from the target's count.
   */
  firstAdmittedInRun(key: string): number | undefined {
    const folder = this.folder(key);
    const times = readdirSync(folder)
      .filter((name) => name.startsWith(FIRST_ADMITTED_PREFIX))
      .map((name) => Number(readFileSync(path.join(folder, name), 'utf8')))
      .filter((at) => Number.isFinite(at) && at > 0);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Marks a key whose daily quota a test has used up, so later leases prefer other keys. */
  markExhausted(key: string): void {
    writeFileSync(path.join(this.folder(key), EXHAUSTED), '');
  }

  isExhausted(key: string): boolean {
    return existsSync(path.join(this.folder(key), EXHAUSTED));
  }

  /** Notes that a key came to this run spent, until `untilMs` (real time), so no later test leases it for room. */
  markSpent(key: string, untilMs: number): void {
    writeFileSync(path.join(this.folder(key), SPENT), String(untilMs));
  }

  /** Until when a key is spent, if a test of this run found it spent. */
  spentUntil(key: string): number | undefined {
    try {
      const until = Number(readFileSync(path.join(this.folder(key), SPENT), 'utf8'));
      return Number.isFinite(until) && until > 0 ? until : undefined;
    } catch {
      return undefined;
    }
  }

  /** Notes that a key answers as another plan's, so no later test measures its plan on it. */
  markMisconfigured(key: string, description: string): void {
    writeFileSync(path.join(this.folder(key), MISCONFIGURED), description);
  }

  /** What a test of this run found of a key that answers as another plan's, if one did. */
  misconfigured(key: string): string | undefined {
    try {
      return readFileSync(path.join(this.folder(key), MISCONFIGURED), 'utf8') || undefined;
    } catch {
      return undefined;
    }
  }

  /** What the run remembers of the key's refusals, for the polite client to wait for. */
  rest(key: string): KeyRest {
    return new KeyRest(path.join(this.folder(key), REST));
  }

  private folder(key: string): string {
    const folder = path.join(this.dir, createHash('sha256').update(key).digest('hex').slice(0, 24));
    mkdirSync(folder, { recursive: true });
    return folder;
  }

  private tryClaimExclusive(key: string): boolean {
    const file = path.join(this.folder(key), EXCLUSIVE);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, String(this.pid));
        closeSync(fd);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (!this.takeBackIfDead(file)) return false;
      }
    }
    return false;
  }

  private exclusiveHeld(key: string): boolean {
    const file = path.join(this.folder(key), EXCLUSIVE);
    return existsSync(file) && !this.takeBackIfDead(file);
  }

  private async waitForCommonHolders(key: string, signal?: AbortSignal): Promise<void> {
    const folder = this.folder(key);
    for (;;) {
      const holders = readdirSync(folder).filter((name) => name.startsWith(COMMON_PREFIX));
      const live = holders.filter((name) => !this.takeBackIfDead(path.join(folder, name)));
      if (live.length === 0) return;
      signal?.throwIfAborted();
      await sleep(this.pollMs, signal);
    }
  }

  /** Removes a lease file whose owner process is gone; true when it did. An empty file is one being written. */
  private takeBackIfDead(file: string): boolean {
    let owner: number;
    try {
      owner = Number(readFileSync(file, 'utf8'));
    } catch {
      return true;
    }
    if (!Number.isInteger(owner) || owner <= 0 || this.isAlive(owner)) return false;
    rmSync(file, { force: true });
    return true;
  }

  private releaseCommon(key: string, file: string): void {
    rmSync(file, { force: true });
    this.markUsed(key);
    const left = (this.heldInCommon.get(key) ?? 1) - 1;
    if (left > 0) this.heldInCommon.set(key, left);
    else this.heldInCommon.delete(key);
  }

  private removeOwned(file: string): void {
    try {
      if (Number(readFileSync(file, 'utf8')) === this.pid) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  }
}
