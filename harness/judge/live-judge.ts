/**
 * The judge run live, whatever feeds it: a followed log (harness/watch/) or the recording proxy's traffic as it
 * passes (harness/record/). Each entry is read as the judge reads a capture's (capture-entry.ts) and handed to
 * the judge's own TrafficJudge; what it finds is counted as Prometheus metrics (live-metrics.ts) and minute by
 * minute for the charts (live-history.ts). Nothing is judged a second way: the report is the judge's.
 */
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import { QUOTA_RULES } from '../../lib/checks/registry.ts';
import { toJudgedExchange } from './capture-entry.ts';
import { CLIENT_RULES } from './client-exchange.ts';
import { KeyBook } from './key-book.ts';
import { LiveHistory, type LiveTotals } from './live-history.ts';
import { LiveMetrics } from './live-metrics.ts';
import { ReadPeriod } from './read-period.ts';
import { judgeReport, REPORTED_RULES, type JudgeRun } from './report.ts';
import { RepeatedLines } from './repeated-lines.ts';
import { ownsKey, type Shard } from './shard.ts';
import { TrafficJudge } from './traffic-judge.ts';

export interface LiveJudgeOptions {
  env: NodeJS.ProcessEnv;
  clockSkewMs: number;
  /** Keys named one by one in the metrics; later ones are counted as key="other". */
  maxKeys: number;
  /** The share of the keys judged here (--shard); undefined: all. */
  shard?: Shard;
}

export class LiveJudge {
  readonly keys: KeyBook;
  readonly judge: TrafficJudge;
  readonly metrics: LiveMetrics;
  readonly history = new LiveHistory();
  /** The traffic read, every key's (a shard's too). */
  readonly read = new ReadPeriod();
  /** Lines a source shipped again (a relay or shipper delivering at least once): counted once, as the judge does. */
  readonly repeated = new RepeatedLines();
  /** How far behind its source the judge was at the last refresh, in seconds. */
  lagS = 0;
  private lost = 0;
  private unreadable = 0;
  /** Exchanges judged at the last refresh, so the metric of exchanges read grows by what came since. */
  private refreshedAt = 0;

  constructor(private readonly options: LiveJudgeOptions) {
    this.keys = new KeyBook(options.env);
    this.judge = new TrafficJudge({ env: options.env, clockSkewMs: options.clockSkewMs });
    this.metrics = new LiveMetrics(options.maxKeys);
  }

  /**
   * Judges one entry (a HAR entry, or a line of the exchange format), number `number` of `file`; `text`, the line as
   * written where the source has one, tells a line shipped twice. Throws what reading and judging it throws
   * (CaptureInputError, OutOfOrderAnswer): the caller decides what a bad entry is.
   */
  add(number: number, entry: unknown, file: string, text?: string): void {
    const exchange = toJudgedExchange({ number, entry }, file, this.keys);
    if (exchange) this.read.add(exchange.answeredAt);
    const pseudonym = typeof exchange?.key === 'object' ? exchange.key.pseudonym : undefined;
    if (!exchange || !ownsKey(this.options.shard, pseudonym)) return;
    if (text !== undefined && this.repeated.repeats(text, exchange.answeredAt)) return;
    if (pseudonym === undefined) return void this.judge.add(exchange);
    const before = CLIENT_RULES.map((rule) => this.judge.tallies.get(rule)?.violations ?? 0);
    this.judge.add(exchange);
    // The client rules judge a key's requests as that key's next ones come: what grew was this key's.
    for (const [index, rule] of CLIENT_RULES.entries()) {
      const grew = (this.judge.tallies.get(rule)?.violations ?? 0) - (before[index] as number);
      if (grew > 0) this.metrics.breach(pseudonym, rule, grew);
    }
  }

  /** Lines the source had that will never be judged (`count`), counted apart from every verdict. */
  linesLost(count: number): void {
    this.metrics.lost.inc(count);
    this.lost += count;
  }

  /** A line that is not an exchange: counted, never judged. */
  lineUnreadable(): void {
    this.metrics.unreadable.inc();
    this.unreadable++;
  }

  /** Brings the metrics and the minute's history up to what has been judged; `lagS` is how far behind its source it is. */
  refresh(lagS: number, now = Date.now()): void {
    const { exchanges, openWindows } = this.judge.progress;
    this.metrics.read.inc(exchanges - this.refreshedAt);
    this.refreshedAt = exchanges;
    this.lagS = lagS;
    this.metrics.lag.set(lagS);
    this.metrics.update(this.judge.tallies, openWindows);
    this.history.record(this.totals, lagS, now);
  }

  /** What has been judged so far, as running totals (the page's charts and figures). */
  get totals(): LiveTotals {
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

  /** The verdict so far, as the judge's report, with no window closed: what the live page shows. */
  report(run: JudgeRun): ConformanceReport {
    return judgeReport(this.judge.tallies, run, this.keys.redactor);
  }

  /** Ends the judged period: closes every window and writes it as the judge's report (keys redacted). */
  finish(run: JudgeRun): ConformanceReport {
    return judgeReport(this.judge.finish(), run, this.keys.redactor);
  }
}
