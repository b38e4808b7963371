/** One request of a load run as the verdicts see it: when it was meant to go, when it went, what came back. */
import type { Outcome } from '../../lib/rate-limiter/admitted.ts';
import type { LoadOperation } from './scenario.ts';

export { outcomeOf, type Outcome } from '../../lib/rate-limiter/admitted.ts';

export interface Observation {
  operation: LoadOperation;
  /** Milliseconds since the run started: when the schedule meant to send it, when it went, when the answer was read. */
  intendedAt: number;
  sentAt: number;
  doneAt: number;
  /** 0 when no response came (connection refused, timeout). */
  status: number;
  outcome: Outcome;
  /** X-RateLimit-Limit, -Remaining and -Reset (Unix seconds), when the response had all three as whole numbers. */
  limit: number | undefined;
  remaining: number | undefined;
  reset: number | undefined;
  /** Retry-After of a 429, in milliseconds. */
  retryAfterMs: number | undefined;
  /** Set on the request a compliant client sends after waiting out a 429. */
  retry: RetryInfo | undefined;
  error: string | undefined;
  /** Sent a second time after its first connection died unanswered (HttpResponse.sentAgain): the first may have been counted. */
  sentAgain?: true;
}

export interface RetryInfo {
  /** What the client waited out: a 429, or a failure of the target (a 5xx, no answer), which has no Retry-After. */
  after: 'refusal' | 'failure';
  /** How long the client waited after the 429 (Retry-After plus jitter) or the failure (its own backoff). */
  waitedMs: number;
  /** What the 429's Retry-After asked for, if it had one. */
  retryAfterMs: number | undefined;
}
