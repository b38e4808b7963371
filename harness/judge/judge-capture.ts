/**
 * A capture judged whole, in one pass: each entry read (readCapture streams it), turned into an exchange
 * and handed to the judge, then the report built from the tallies. Memory is that of one entry plus the
 * judge's keys and open windows.
 */
import { basename } from 'node:path';
import { harCarriesAuthorization } from '../../lib/capture/authorization-scan.ts';
import { CaptureInputError, HAR_IN_WORKER_BYTES, readCaptureInChunks, type CaptureFormat, type ReadEntry } from '../../lib/capture/read.ts';
import { OutOfOrderAnswer } from '../../lib/rate-limiter/window-accountant.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import { toJudgedExchange } from './capture-entry.ts';
import { KeyBook } from './key-book.ts';
import { ReadPeriod } from './read-period.ts';
import { judgeFormat } from './judge-format.ts';
import { RepeatedLines, repeatsText } from './repeated-lines.ts';
import { ownsKey, shardText, type Shard } from './shard.ts';
import { judgeReport, type JudgeRun } from './report.ts';
import { TrafficJudge } from './traffic-judge.ts';
import type { ConformanceReport } from '../../lib/verdicts/model.ts';
import type { TrafficPeriod } from '../../lib/verdicts/evidence.ts';

export interface CaptureJudgement {
  report: ConformanceReport;
  exchanges: number;
  keys: number;
  /** Lines that repeated one already read (logs shipped at least once, a batch re-sent), dropped. */
  repeatsDropped: number;
  /** The traffic read, every key's (a shard's too): undefined for a capture with no exchange. */
  period: TrafficPeriod | undefined;
}

/** `harInWorkerFrom`: the size from which a HAR is read on a worker thread (HAR_IN_WORKER_BYTES; a test's small HAR is read there from 0). */
export async function judgeCapture(path: string, options: { env: NodeJS.ProcessEnv; clockSkewMs: number; format?: CaptureFormat; shard?: Shard; harInWorkerFrom?: number; run: Omit<JudgeRun, 'target' | 'file' | 'startedAt' | 'durationMs' | 'enterpriseQuota'> }): Promise<CaptureJudgement> {
  const started = new Date();
  const file = basename(path);
  const keys = new KeyBook(options.env);
  const judge = new TrafficJudge({ env: options.env, clockSkewMs: options.clockSkewMs });
  const format = options.format ?? judgeFormat(path);
  // A HAR none of whose entries carries Authorization was sanitized: whether its requests carried a key is unknown.
  const reading = { harAuthorization: harCarriesAuthorization(path) };
  const repeated = new RepeatedLines();
  const read = new ReadPeriod();
  for await (const chunk of readCaptureInChunks(path, format, options.harInWorkerFrom ?? HAR_IN_WORKER_BYTES, 'judged')) {
    for (const raw of chunk) {
      const exchange = toJudgedExchange(raw, file, keys, reading);
      if (exchange) read.add(exchange.answeredAt);
      if (exchange && ownsKey(options.shard, typeof exchange.key === 'object' ? exchange.key.pseudonym : undefined) && !repeats(repeated, raw, exchange.answeredAt)) addInOrder(judge, exchange, file);
    }
  }
  const { exchanges, keys: keyCount } = judge.progress;
  const report = judgeReport(judge.finish(), {
    ...options.run,
    target: `capture ${file} (${exchanges.toLocaleString('en-US')} exchanges${shardText(options.shard)}${repeatsText(repeated.dropped)}${spanText(judge.span)})`,
    file,
    startedAt: started,
    durationMs: Date.now() - started.getTime(),
    enterpriseQuota: enterpriseText(judge),
  }, keys.redactor);
  return { report, exchanges, keys: keyCount, repeatsDropped: repeated.dropped, period: read.period };
}

/** By the fingerprint the reader took where it did: the entry's text is then not needed. */
function repeats(repeated: RepeatedLines, raw: ReadEntry, at: number): boolean {
  return raw.fingerprints === undefined ? repeated.repeats(raw.text, at) : repeated.fingerprintRepeats(raw.fingerprints, raw.fingerprintAt, at);
}

/** A capture that goes back in time beyond the judge's buffer is refused, the entry named, never quietly misjudged. */
function addInOrder(judge: TrafficJudge, exchange: JudgedExchange, file: string): void {
  try {
    judge.add(exchange);
  } catch (error) {
    if (!(error instanceof OutOfOrderAnswer)) throw error;
    throw new CaptureInputError(`${file}: entry ${error.id} ${error.message}: merge captures by time first (logs of several gateways: sort their lines by "time")`);
  }
}

export function spanText({ first, last }: { first: number | undefined; last: number }): string {
  if (first === undefined) return '';
  const at = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  return `, ${at(Math.min(first, last))} to ${at(last)} UTC`;
}

export function enterpriseText(judge: TrafficJudge): string | undefined {
  const quota = judge.agreedEnterprise;
  return quota ? `${quota.perMinute.toLocaleString('en-US')}/min, ${quota.perDay.toLocaleString('en-US')}/day` : undefined;
}
