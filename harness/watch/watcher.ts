/**
 * The live judge: lines of a followed access log, each read as the judge reads a capture's line
 * (capture-entry.ts) and handed to the judge's own TrafficJudge, its findings counted as metrics. A line that is
 * not an exchange is counted unreadable and skipped: a live log is never refused whole for one bad line.
 */
import { basename } from 'node:path';
import { CaptureInputError } from '../../lib/capture/read.ts';
import { OutOfOrderAnswer } from '../../lib/rate-limiter/window-accountant.ts';
import { toJudgedExchange } from '../judge/capture-entry.ts';
import { KeyBook } from '../judge/key-book.ts';
import { judgeReport, REPORTED_RULES, type JudgeRun } from '../judge/report.ts';
import { TrafficJudge } from '../judge/traffic-judge.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { LogFollower, type FollowedLines } from './log-follower.ts';
import { CLIENT_RULES } from '../judge/client-exchange.ts';
import { ownsKey, shardText, type Shard } from '../judge/shard.ts';
import { QUOTA_RULES } from '../../lib/checks/registry.ts';
import { WatchHistory, type WatchTotals } from './watch-history.ts';
import { WatchMetrics } from './watch-metrics.ts';

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
  readonly metrics: WatchMetrics;
  private readonly follower: LineSource;
  private readonly keys: KeyBook;
  private readonly judge: TrafficJudge;
  private readonly file: string;
  readonly history = new WatchHistory();
  private lines = 0;
  private lost = 0;
  private unreadable = 0;
  private behindSince: number | undefined;
  /** How far behind its source the watcher was at the last poll, in seconds. */
  lagS = 0;
  readonly startedAt = new Date();

  constructor(private readonly options: WatchOptions) {
    this.follower = options.source ?? new LogFollower(options.log, options.stateFile);
    this.keys = new KeyBook(options.env);
    this.judge = new TrafficJudge({ env: options.env, clockSkewMs: options.clockSkewMs });
    this.metrics = new WatchMetrics(options.maxKeys);
    this.file = basename(options.log);
  }

  /** Whether the last poll left lines in the source unread (it reads a bounded amount at a time). */
  get behind(): boolean {
    return this.behindSince !== undefined;
  }

  /** Lines judged so far, and exchanges among them. */
  get counts(): { lines: number; exchanges: number } {
    return { lines: this.lines, exchanges: this.judge.progress.exchanges };
  }

  /** What the watcher has judged so far, as running totals (the page's charts and figures). */
  get totals(): WatchTotals {
    const violations = (rules: readonly string[]): number => rules.reduce((sum, rule) => sum + (this.judge.tallies.get(rule)?.violations ?? 0), 0);
    return {
      exchanges: this.judge.progress.exchanges,
      failures: violations(REPORTED_RULES),
      overQuota: violations(QUOTA_RULES),
      breaches: violations(CLIENT_RULES),
      lost: this.lost,
      unreadable: this.unreadable,
    };
  }

  /** The verdict so far, as the judge's report, with no window closed: what the watcher's page shows. */
  liveReport(run: WatchRun): ConformanceReport {
    return judgeReport(this.judge.tallies, this.run(run, Date.now()), this.keys.redactor);
  }

  /** Judges what the log has gained since the last call, then saves the position; returns how many lines. */
  poll(now = Date.now(), final = false): number {
    const read = this.follower.read(final);
    const before = this.judge.progress.exchanges;
    if (read.gaps > 0) {
      this.metrics.lost.inc(read.gaps);
      this.lost += read.gaps;
      this.options.warn(this.options.source ? `petstore-conformance watch: ${read.gaps} lines of ${this.file} lost on the way (numbers skipped in their connections' "seq"): not judged` : `petstore-conformance watch: a rotated file of ${this.file} was gone before its rest was read: lines lost, how many is unknown (keep one rotated file uncompressed: rotate 1, delaycompress)`);
    }
    for (const line of read.lines) this.judgeLine(line);
    this.follower.save();
    this.metrics.read.inc(this.judge.progress.exchanges - before);
    this.behindSince = read.behindBytes > 0 ? (this.behindSince ?? now) : undefined;
    const lagS = this.behindSince === undefined ? 0 : (now - this.behindSince) / 1000;
    this.lagS = lagS;
    this.metrics.lag.set(lagS);
    this.metrics.update(this.judge.tallies, this.judge.progress.openWindows);
    this.history.record(this.totals, lagS, now);
    return read.lines.length;
  }

  /** Ends the judged period: closes every window and writes it as the judge's report (keys redacted). */
  finish(run: WatchRun): ConformanceReport {
    this.follower.close();
    return judgeReport(this.judge.finish(), this.run(run, Date.now()), this.keys.redactor);
  }

  private run(run: WatchRun, now: number): JudgeRun {
    const exchanges = this.judge.progress.exchanges;
    return {
      ...run,
      target: `watched log ${this.file} (${exchanges.toLocaleString('en-US')} exchanges${shardText(this.options.shard)}, from ${this.startedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC)`,
      file: this.file,
      startedAt: this.startedAt,
      durationMs: now - this.startedAt.getTime(),
      enterpriseQuota: undefined,
    };
  }

  private judgeLine(line: string): void {
    const number = ++this.lines;
    try {
      const exchange = toJudgedExchange({ number, entry: parseObject(line) }, this.file, this.keys);
      const pseudonym = typeof exchange?.key === 'object' ? exchange.key.pseudonym : undefined;
      if (!exchange || !ownsKey(this.options.shard, pseudonym)) return;
      const before = pseudonym === undefined ? [] : CLIENT_RULES.map((rule) => this.judge.tallies.get(rule)?.violations ?? 0);
      this.judge.add(exchange);
      if (pseudonym === undefined) return;
      // The client rules judge a key's requests as that key's next ones come: what grew was this key's.
      CLIENT_RULES.forEach((rule, index) => {
        const grew = (this.judge.tallies.get(rule)?.violations ?? 0) - (before[index] as number);
        if (grew > 0) this.metrics.breach(pseudonym, rule, grew);
      });
    } catch (error) {
      if (!(error instanceof CaptureInputError || error instanceof OutOfOrderAnswer || error instanceof SyntaxError)) throw error;
      this.metrics.unreadable.inc();
      this.unreadable++;
      this.options.warn(`petstore-conformance watch: ${this.file} line ${number} not judged: ${error.message}`);
    }
  }
}

function parseObject(line: string): unknown {
  const entry: unknown = JSON.parse(line);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new SyntaxError('not a JSON object');
  return entry;
}
