/**
 * X-RateLimit-Remaining is a promise: that many more requests fit in the window now. On a key the test holds
 * alone, a request sent after an answer that promised at least one more, refused by the same minute window before
 * the promise was used up, proves the header overstated what was left (RL-6). No limiter the spec allows breaks
 * such a promise by waiting: a bucket, a sliding log or a sliding counter only give quota back as time passes.
 * Judged only where every answer describes the minute window (Limit = the plan's minute quota, so the day's window
 * is never taken for it) and the refusal asks for no more than a minute window's wait (a minute's refusal, not the
 * day's).
 */
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import { decidedAfter } from '../../lib/rate-limiter/order.ts';
import type { Quota } from '../../lib/plans.ts';
import type { Exchange } from './exchange.ts';
import type { MinuteMeasurement } from './minute-window.ts';
import { isAdmitted, longerThanWindow, mayHaveEnded, MINUTE_WINDOW_MS, readingOf, refusalWaitOf } from './window-analysis.ts';

export interface BrokenPromise {
  message: string;
  /** The answer that promised, and the refusal that broke the promise. */
  evidence: [Exchange, Exchange];
}

/**
 * The request after a burst was sent once every answer of it had come: the last admission decided promised at
 * least the lowest Remaining any admitted answer carried, so a refusal of that request breaks it when that is 1 or more.
 */
export function brokenPromiseAfterBurst({ probe, burst, extra }: MinuteMeasurement, quota: Quota): BrokenPromise | undefined {
  const admitted = [probe, ...burst.filter((exchange) => isAdmitted(readingOf(exchange)))];
  if (!admitted.every((exchange) => describesTheMinute(exchange, quota))) return undefined;
  const promising = admitted.reduce((lowest, exchange) => (readingOf(exchange).remaining! < readingOf(lowest).remaining! ? exchange : lowest));
  const broken = brokenBy(promising, extra, quota);
  if (!broken) return undefined;
  const remaining = readingOf(promising).remaining!;
  return {
    message: `expected X-RateLimit-Remaining to promise no more than the window still admitted: all ${admitted.length} admitted answers of the window carried ${remaining} or more, yet the request sent after every one of them had come was refused with 429 (Retry-After: ${extra.response.headers['retry-after'] ?? 'none'}) in the same window`,
    evidence: [promising, extra],
  };
}

/** Requests sent one at a time: an admitted answer that promised one more, and the next request refused. */
export function brokenPromiseOneAtATime(exchanges: readonly Exchange[], quota: Quota): BrokenPromise | undefined {
  for (let index = 1; index < exchanges.length; index++) {
    const [promising, next] = [exchanges[index - 1]!, exchanges[index]!];
    if (!isAdmitted(readingOf(promising)) || !describesTheMinute(promising, quota) || !brokenBy(promising, next, quota)) continue;
    return {
      message: `expected X-RateLimit-Remaining to promise no more than the window still admitted: an admitted answer said ${readingOf(promising).remaining} left, and the next request, sent after it came, was refused with 429 (Retry-After: ${next.response.headers['retry-after'] ?? 'none'}) in the same window`,
      evidence: [promising, next],
    };
  }
  return undefined;
}

function describesTheMinute(exchange: Exchange, quota: Quota): boolean {
  const { limit, remaining, reset } = readingOf(exchange);
  return windowKind({ limit }, quota) === 'minute' && remaining !== undefined && reset !== undefined;
}

/** `next`, sent after `promising` came, refused by the minute window that had promised it room. */
function brokenBy(promising: Exchange, next: Exchange, quota: Quota): boolean {
  const promised = readingOf(promising);
  return (
    promised.remaining! >= 1 &&
    next.response.status === 429 &&
    decidedAfter(promising, next, 0) === 'after' &&
    !mayHaveEnded(promised.reset!, next.sentAt) &&
    !longerThanWindow(refusalWaitOf(next, quota), MINUTE_WINDOW_MS)
  );
}
