/**
 * The watcher: lines of a followed access log (or of syslog), each handed to the live judge
 * (harness/judge/live-judge.ts), which reads it as the judge reads a capture's line and counts what it finds as
 * metrics. A line that is not an exchange is counted unreadable and skipped: a live log is never refused whole
 * for one bad line.
 */
import { basename } from 'node:path';
import { CaptureInputError } from '../../lib/capture/read.ts';
import { OutOfOrderAnswer } from '../../lib/rate-limiter/window-accountant.ts';
import type { JudgeRun } from '../judge/report.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { LogFollower, type FollowedLines } from './log-follower.ts';
import { shardText, type Shard } from '../judge/shard.ts';
import { LiveJudge } from '../judge/live-judge.ts';
import { repeatsText } from '../judge/repeated-lines.ts';

/** Where lines come from: a followed log file, or a syslog socket. */
export interface LineSource {
  /** Lines since the last call; `final`: the watcher stops, hand on everything held. */
  read(final: boolean): FollowedLines;
  save(): void;
  close(): void;
}

export interface WatchOptions {
  /** The log followed, or the name the lines go by when `source` is given. */
  log: string;
  /** Lines from elsewhere than the log file (syslog-source.ts). */
  source?: LineSource;
  /** Where the position is saved between runs; undefined: every start reads the log from its beginning. */
  stateFile: string | undefined;
  env: NodeJS.ProcessEnv;
  clockSkewMs: number;
  maxKeys: number;
  /** Where unreadable lines and gaps are told, one line each. */
  warn: (line: string) => void;
  /** The share of the keys this watcher judges (--shard); undefined: all. */
  shard?: Shard;
}

/** What the report says of the run that is not the watcher's to know (the package's version, its commit). */
export type WatchRun = Omit<JudgeRun, 'target' | 'file' | 'startedAt' | 'durationMs' | 'enterpriseQuota'>;

export class Watcher {
  /** The judge, its metrics and its history: what the page and /metrics show. */
  readonly live: LiveJudge;
  private readonly follower: LineSource;
  private readonly file: string;
  private lines = 0;
  private behindSince: number | undefined;
  readonly startedAt = new Date();

  constructor(private readonly options: WatchOptions) {
    this.follower = options.source ?? new LogFollower(options.log, options.stateFile);
    this.live = new LiveJudge({ env: options.env, clockSkewMs: options.clockSkewMs, maxKeys: options.maxKeys, ...(options.shard ? { shard: options.shard } : {}) });
    this.file = basename(options.log);
  }

  /** Whether the last poll left lines in the source unread (it reads a bounded amount at a time). */
  get behind(): boolean {
    return this.behindSince !== undefined;
  }

  /** Lines judged so far, and exchanges among them. */
  get counts(): { lines: number; exchanges: number } {
    return { lines: this.lines, exchanges: this.live.judge.progress.exchanges };
  }

  /** The verdict so far, as the judge's report, with no window closed: what the watcher's page shows. */
  liveReport(run: WatchRun): ConformanceReport {
    return this.live.report(this.run(run, Date.now()));
  }

  /** Judges what the log has gained since the last call, then saves the position; returns how many lines. */
  poll(now = Date.now(), final = false): number {
    const read = this.follower.read(final);
    if (read.gaps > 0) {
      this.live.linesLost(read.gaps);
      this.options.warn(this.options.source ? `petstore-conformance watch: ${read.gaps} lines of ${this.file} lost on the way (numbers skipped in their connections' "seq"): not judged` : `petstore-conformance watch: a rotated file of ${this.file} was gone before its rest was read: lines lost, how many is unknown (keep one rotated file uncompressed: rotate 1, delaycompress)`);
    }
    for (const line of read.lines) this.judgeLine(line);
    this.follower.save();
    this.behindSince = read.behindBytes > 0 ? (this.behindSince ?? now) : undefined;
    this.live.refresh(this.behindSince === undefined ? 0 : (now - this.behindSince) / 1000, now);
    return read.lines.length;
  }

  /** Ends the judged period: closes every window and writes it as the judge's report (keys redacted). */
  finish(run: WatchRun): ConformanceReport {
    this.follower.close();
    return this.live.finish(this.run(run, Date.now()));
  }

  private run(run: WatchRun, now: number): JudgeRun {
    const exchanges = this.live.judge.progress.exchanges;
    return {
      ...run,
      target: `watched log ${this.file} (${exchanges.toLocaleString('en-US')} exchanges${shardText(this.options.shard)}${repeatsText(this.live.repeated.dropped)}, from ${this.startedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC)`,
      file: this.file,
      startedAt: this.startedAt,
      durationMs: now - this.startedAt.getTime(),
      enterpriseQuota: undefined,
    };
  }

  private judgeLine(line: string): void {
    const number = ++this.lines;
    try {
      this.live.add(number, parseObject(line), this.file, line);
    } catch (error) {
      if (!(error instanceof CaptureInputError || error instanceof OutOfOrderAnswer || error instanceof SyntaxError)) throw error;
      this.live.lineUnreadable();
      this.options.warn(`petstore-conformance watch: ${this.file} line ${number} not judged: ${error.message}`);
    }
  }
}

function parseObject(line: string): unknown {
  const entry: unknown = JSON.parse(line);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new SyntaxError('not a JSON object');
  return entry;
}
