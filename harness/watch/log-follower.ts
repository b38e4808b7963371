/**
 * Follows a growing log file, line by line, across rotation both ways logrotate does it, and from a saved
 * position after a restart, so that every line is handed on once:
 * - `create`: the file is renamed (access.log.1) and a new one created. The file is known by its inode; when the
 *   path names another, the rest of the old one is read first, found by its inode among the log's siblings;
 * - `copytruncate`: the file is copied (access.log.1) and truncated in place. The file is known by its first
 *   bytes too; when it is shorter than the position, or starts otherwise, the rest is read from the copy (the
 *   sibling that starts with the same bytes), then the file from its start. Lines written between logrotate's
 *   copy and its truncation are in neither: logrotate's own race, which no reader can close.
 * A rotated file that is gone (compressed at once, or rotated out during a restart) loses its unread rest: that
 * is reported as a gap, never guessed at. Only whole lines are handed on: a line being written waits. A renamed
 * file is read on for a few seconds after it last grew: its writer keeps writing it until told to reopen.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where the follower is, as saved between runs. */
export interface FollowPosition {
  ino: number;
  offset: number;
  /** The file's first bytes (up to HEAD_BYTES, as latin1), which tell a truncated file from the one read. */
  head: string;
}

export interface FollowedLines {
  lines: string[];
  /** Rotated files whose unread rest could not be found: lines were lost, how many is unknown. */
  gaps: number;
  /** Bytes of the file not yet read once these lines are judged (a reader behind its log). */
  behindBytes: number;
}

/** A file renamed by rotation that is still read, from `offset`, while its writer may not have reopened yet. */
interface Trailing {
  fd: number;
  offset: number;
  until: number;
}

const HEAD_BYTES = 256;
/**
 * How long a renamed file is read on after it last grew: nginx writes the old file until logrotate's postrotate
 * signals it (USR1) and each worker reopens, which takes milliseconds; a slow reopen still fits.
 */
const TRAILING_MS = 5_000;
/** At most this much is read per call, so a follower far behind hands lines on in bounded batches. */
const MAX_READ_BYTES = 4 << 20;

export class LogFollower {
  private position: FollowPosition | undefined;
  private fd: number | undefined;
  private trailing: Trailing | undefined;

  constructor(
    readonly path: string,
    private readonly statePath: string | undefined,
  ) {
    if (statePath && existsSync(statePath)) this.position = JSON.parse(readFileSync(statePath, 'utf8')) as FollowPosition;
  }

  /** The lines written since the last call (or the saved position), whole lines only. */
  read(): FollowedLines {
    const out: FollowedLines = { lines: [], gaps: 0, behindBytes: 0 };
    if (this.trailing) this.readTrailing(out);
    const current = statOrUndefined(this.path);
    if (!current) return out; // between a rename and the create: the new file comes next time
    if (this.position && this.position.ino !== current.ino) {
      // rotated by rename: finish the old file, wherever it went, then any rotated after it
      const ino = this.position.ino;
      const old = this.findSibling((stat) => stat.ino === ino);
      const held = this.fd !== undefined && fstatSync(this.fd).ino === ino ? this.fd : undefined;
      let reached: number | undefined;
      if (old !== undefined) reached = this.finishFrom(old, this.position.offset, out);
      else if (held !== undefined) reached = this.drain(held, this.position.offset, out, true);
      else out.gaps++;
      if (held !== undefined && reached !== undefined) {
        // The writer may still be writing the renamed file (nginx until its USR1): it is read on for a while.
        this.closeTrailing(out);
        this.trailing = { fd: held, offset: reached, until: Date.now() + TRAILING_MS };
        this.fd = undefined;
      }
      this.switchTo(undefined);
    } else if (this.position && (current.size < this.position.offset || headOfFile(this.path, this.position.head.length) !== this.position.head)) {
      // truncated in place: the rest is in the copy
      const head = this.position.head;
      const offset = this.position.offset;
      const copy = offset === 0 ? undefined : this.findSibling((stat, path) => stat.ino !== current.ino && stat.size >= offset && headOfFile(path, head.length) === head);
      if (copy !== undefined) this.finishFrom(copy, offset, out);
      else if (offset > 0) out.gaps++;
      this.switchTo(undefined);
    }
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'r');
      const ino = fstatSync(this.fd).ino;
      if (!this.position || this.position.ino !== ino) this.position = { ino, offset: 0, head: '' };
    }
    const position = this.position as FollowPosition;
    position.offset = this.drain(this.fd, position.offset, out, false);
    if (position.head.length < HEAD_BYTES) position.head = headOfFile(this.path, HEAD_BYTES);
    out.behindBytes = Math.max(0, fstatSync(this.fd).size - position.offset);
    return out;
  }

  /** Saves the position reached: call once the lines read are judged, so a restart neither repeats nor skips one. */
  save(): void {
    if (!this.statePath || !this.position) return;
    const partial = `${this.statePath}.partial`;
    writeFileSync(partial, `${JSON.stringify(this.position)}\n`);
    renameSync(partial, this.statePath);
  }

  close(): void {
    this.closeTrailing({ lines: [], gaps: 0, behindBytes: 0 });
    this.switchTo(undefined);
  }

  /** What the writer added to the renamed file since; it is let go once it has not grown for TRAILING_MS. */
  private readTrailing(out: FollowedLines): void {
    const trailing = this.trailing as Trailing;
    const reached = this.drain(trailing.fd, trailing.offset, out, false);
    if (reached > trailing.offset) trailing.until = Date.now() + TRAILING_MS;
    trailing.offset = reached;
    if (Date.now() > trailing.until) this.closeTrailing(out);
  }

  private closeTrailing(out: FollowedLines): void {
    if (!this.trailing) return;
    this.drain(this.trailing.fd, this.trailing.offset, out, true);
    closeSync(this.trailing.fd);
    this.trailing = undefined;
  }

  private switchTo(fd: number | undefined): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = fd;
    this.position = undefined;
  }

  /** Reads whole lines from `offset` (all of a finished file, its last line even without a newline); returns the offset reached. */
  private drain(fd: number, offset: number, out: FollowedLines, finished: boolean): number {
    const size = fstatSync(fd).size;
    let at = offset;
    while (at < size && at - offset < MAX_READ_BYTES) {
      const buffer = Buffer.alloc(Math.min(size - at, 1 << 20));
      const got = readSync(fd, buffer, 0, buffer.length, at);
      if (got === 0) break;
      const text = buffer.subarray(0, got);
      const lastNewline = text.lastIndexOf(0x0a);
      const whole = lastNewline < 0 ? (finished && at + got >= size ? got : 0) : lastNewline + 1;
      if (whole === 0) break;
      for (const line of text.subarray(0, whole).toString('utf8').split('\n')) if (line.trim() !== '') out.lines.push(line);
      at += whole;
      if (whole < got && !finished) break;
    }
    if (finished && at < size) return this.drain(fd, at, out, true);
    return at;
  }

  /**
   * Reads a rotated file from `offset` to its end, then whole every file rotated after it (access.log.2, then .1);
   * returns the offset reached in the first.
   */
  private finishFrom(path: string, offset: number, out: FollowedLines): number {
    const newer = /\.(\d+)$/.exec(path);
    const later = newer ? Array.from({ length: Number(newer[1]) - 1 }, (_, index) => `${this.path}.${Number(newer[1]) - 1 - index}`).filter((file) => existsSync(file)) : [];
    let reached = offset;
    for (const [index, file] of [path, ...later].entries()) {
      const fd = openSync(file, 'r');
      try {
        const end = this.drain(fd, index === 0 ? offset : 0, out, true);
        if (index === 0) reached = end;
      } finally {
        closeSync(fd);
      }
    }
    return reached;
  }

  /** A rotated sibling of the log (access.log.1, access.log-20261127) that `matches`. */
  private findSibling(matches: (stat: { ino: number; size: number }, path: string) => boolean): string | undefined {
    const dir = dirname(this.path);
    const name = basename(this.path);
    const siblings = readdirSync(dir).filter((entry) => entry !== name && entry.startsWith(name) && !entry.endsWith('.gz') && !entry.endsWith('.partial'));
    for (const entry of siblings) {
      const path = join(dir, entry);
      const stat = statOrUndefined(path);
      if (stat && matches(stat, path)) return path;
    }
    return undefined;
  }
}

function statOrUndefined(path: string): { ino: number; size: number } | undefined {
  try {
    const stat = statSync(path);
    return { ino: stat.ino, size: stat.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function headOfFile(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const got = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, got).toString('latin1');
  } finally {
    closeSync(fd);
  }
}
