/**
 * What a replay found, kept in bounded memory however long the capture: every exchange is counted, but
 * only the first findings (violations, differences, errors, throttling) keep their full evidence, later
 * ones a one-line summary, and identical exchanges are kept in full only for the first few of them.
 */
import * as hdr from 'hdr-histogram-js';
import type { OperationId } from '../../lib/contract.ts';
import type { Redactor } from '../../lib/redact.ts';
import { parsePlaceholder, splitAuthorization } from '../../lib/capture/credentials.ts';
import type { ExchangeResult, Verdict } from './run-exchange.ts';

export interface ResultLimits {
  /** Findings kept with full evidence (request, both responses). */
  detailedFindings: number;
  /** Further findings kept as one line each. */
  listedFindings: number;
  /** Identical exchanges kept with full evidence; the rest are counted. */
  identicalShown: number;
}

export const DEFAULT_LIMITS: ResultLimits = { detailedFindings: 200, listedFindings: 5_000, identicalShown: 200 };

/** Bodies beyond this are cut in the report: the evidence is the start of the body and the pointers. */
const MAX_BODY_CHARS = 8_192;

export interface FindingLine {
  sequence: number;
  entry: number;
  method: string;
  path: string;
  recordedStatus: number;
  replayedStatus: number | undefined;
  verdict: Verdict;
  /** The first violation or difference, in words. */
  first: string;
}

export interface OperationFigures {
  exchanges: number;
  identical: number;
  violations: number;
  differences: number;
}

export const VERDICTS: readonly Verdict[] = ['identical', 'different', 'violation', 'throttled', 'error'];

export class ReplayResults {
  exchanges = 0;
  readonly verdicts: Record<Verdict, number> = { identical: 0, different: 0, violation: 0, throttled: 0, error: 0 };
  /** Exchanges with at least one difference, whatever their verdict. */
  withDifferences = 0;
  violationsTotal = 0;
  readonly byRule = new Map<string, number>();
  readonly byOperation = new Map<OperationId | 'other', OperationFigures>();
  readonly throttling = { exchanges: 0, retries: 0, waitedMs: 0, gaveUp: 0, recorded429: 0, recorded429NotReproduced: 0 };
  /** Verdicts per second since the start of the replay, for the timeline chart. */
  readonly perSecond: Array<Record<Verdict, number>> = [];
  readonly recordedLatency = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2 });
  readonly replayedLatency = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2 });

  private readonly detailed: ExchangeResult[] = [];
  private readonly listed: FindingLine[] = [];
  private readonly identical: ExchangeResult[] = [];
  private unlistedFindings = 0;
  /** Identical exchanges with nothing to remark (no throttling): the ones the report lists last, capped. */
  plainIdentical = 0;

  constructor(
    private readonly startedAt: number,
    private readonly redactor: Redactor,
    private readonly limits: ResultLimits = DEFAULT_LIMITS,
  ) {}

  add(result: ExchangeResult): void {
    this.exchanges++;
    this.verdicts[result.verdict]++;
    if (result.differences.length > 0) this.withDifferences++;
    this.violationsTotal += result.violations.length;
    for (const violation of result.violations) this.byRule.set(violation.rule, (this.byRule.get(violation.rule) ?? 0) + 1);
    this.countOperation(result);
    this.countThrottling(result);
    this.countSecond(result);
    if (result.recorded.ms !== undefined) this.recordedLatency.recordValue(Math.max(1, Math.round(result.recorded.ms * 1000)));
    if (result.replayed) this.replayedLatency.recordValue(Math.max(1, Math.round(result.replayed.ms * 1000)));
    this.retain(result);
  }

  /** Findings with full evidence, in replay order. */
  detailedFindings(): ExchangeResult[] {
    return [...this.detailed].sort((a, b) => a.sequence - b.sequence);
  }

  listedFindings(): FindingLine[] {
    return [...this.listed].sort((a, b) => a.sequence - b.sequence);
  }

  /** Findings neither detailed nor listed: only counted. */
  get unlisted(): number {
    return this.unlistedFindings;
  }

  identicalShown(): ExchangeResult[] {
    return [...this.identical].sort((a, b) => a.sequence - b.sequence);
  }

  private retain(result: ExchangeResult): void {
    // A credential the request carried by position (?x-api-key=, a cookie, a JSON "apiKey") is kept out wherever an answer echoes it.
    this.redactor.learnCarried({ url: result.path, headers: Object.fromEntries(result.requestHeaders), ...(result.requestBody !== undefined ? { body: result.requestBody } : {}) });
    const isFinding = result.verdict !== 'identical' || result.throttle.retries > 0 || result.recorded429 === 'not-reproduced';
    if (!isFinding) {
      this.plainIdentical++;
      if (this.identical.length < this.limits.identicalShown) this.identical.push(this.safe(result));
      return;
    }
    if (this.detailed.length < this.limits.detailedFindings) this.detailed.push(this.safe(result));
    else if (this.listed.length < this.limits.listedFindings) this.listed.push(this.line(result));
    else this.unlistedFindings++;
  }

  /** The result as it may be written down: keys replaced, bodies cut to a readable length. */
  private safe(result: ExchangeResult): ExchangeResult {
    const text = (value: string | undefined): string | undefined => (value === undefined ? undefined : this.redactor.text(cut(value)));
    const headers = (values: Readonly<Record<string, string>>): Record<string, string> => this.redactor.headers(values);
    return {
      ...result,
      path: this.redactor.text(result.path),
      sentPath: this.redactor.text(result.sentPath),
      requestHeaders: result.requestHeaders.map(([name, value]) => [name, this.recordedHeader(name, value)]),
      requestBody: text(result.requestBody),
      recorded: { ...result.recorded, headers: headers(result.recorded.headers), body: text(result.recorded.body) },
      replayed: result.replayed && { ...result.replayed, headers: headers(result.replayed.headers), body: text(result.replayed.body) ?? '' },
      violations: result.violations.map((violation) => ({ ...violation, message: this.redactor.text(violation.message) })),
      differences: result.differences.map((difference) => ({
        ...difference,
        recorded: text(difference.recorded),
        replayed: text(difference.replayed),
      })),
      error: text(result.error),
    };
  }

  /** A recorded request header as written down: placeholders stay readable, any other credential is masked. */
  private recordedHeader(name: string, value: string): string {
    if (name.toLowerCase() !== 'authorization') return this.redactor.member(name, value);
    return parsePlaceholder(splitAuthorization(value).token) ? value : this.redactor.authorization(value);
  }

  private line(result: ExchangeResult): FindingLine {
    const first = firstFinding(result);
    return {
      sequence: result.sequence,
      entry: result.entry,
      method: result.method,
      path: this.redactor.text(result.path),
      recordedStatus: result.recorded.status,
      replayedStatus: result.replayed?.status,
      verdict: result.verdict,
      first: this.redactor.text(cut(first, 300)),
    };
  }

  private countOperation(result: ExchangeResult): void {
    const key = result.operation ?? 'other';
    let figures = this.byOperation.get(key);
    if (!figures) {
      figures = { exchanges: 0, identical: 0, violations: 0, differences: 0 };
      this.byOperation.set(key, figures);
    }
    figures.exchanges++;
    if (result.verdict === 'identical') figures.identical++;
    if (result.violations.length > 0) figures.violations++;
    if (result.differences.length > 0) figures.differences++;
  }

  private countThrottling(result: ExchangeResult): void {
    const { throttle } = result;
    if (throttle.retries > 0) this.throttling.exchanges++;
    this.throttling.retries += throttle.retries;
    this.throttling.waitedMs += throttle.waitedMs;
    if (throttle.gaveUp) this.throttling.gaveUp++;
    if (result.recorded429) this.throttling.recorded429++;
    if (result.recorded429 === 'not-reproduced') this.throttling.recorded429NotReproduced++;
  }

  private countSecond(result: ExchangeResult): void {
    const second = Math.max(0, Math.floor((result.finishedAt - this.startedAt) / 1000));
    while (this.perSecond.length <= second) this.perSecond.push({ identical: 0, different: 0, violation: 0, throttled: 0, error: 0 });
    const bucket = this.perSecond[second];
    if (bucket) bucket[result.verdict]++;
  }
}

/** What is wrong with an exchange, in one line: the error, else the first violation, difference or throttling note. */
export function firstFinding(result: Pick<ExchangeResult, 'error' | 'violations' | 'differences' | 'throttle' | 'recorded429'>): string {
  const violation = result.violations[0];
  const difference = result.differences[0];
  if (result.error) return `transport error: ${result.error}`;
  if (violation) return `${violation.rule}: ${violation.message}`;
  if (difference) return `${difference.where}: ${difference.recorded ?? '(absent)'} -> ${difference.replayed ?? '(absent)'}`;
  return throttleNote(result);
}

export function throttleNote(result: Pick<ExchangeResult, 'throttle' | 'recorded429'>): string {
  if (result.recorded429 === 'not-reproduced') return 'recorded 429 not reproduced: the target answered this time';
  if (result.throttle.gaveUp) return `still refused (429) after ${result.throttle.retries} polite retries`;
  if (result.throttle.retries > 0) return `refused (429) ${result.throttle.retries} time(s), waited out per Retry-After`;
  return '';
}

function cut(text: string, max = MAX_BODY_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
