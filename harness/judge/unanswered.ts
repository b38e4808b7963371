/**
 * RESP-3 from traffic: a request the capture shows without an answer, while other requests to its operation were
 * answered. What a capture writes for one: a HAR entry of status 0 (a browser's or a proxy's record of a request
 * whose connection was reset or closed, or that timed out), an nginx log line of 444 (nginx closed the connection
 * without answering) or of 499 (the client gave up waiting). A 0 that a client may have cancelled itself (a page
 * navigating away, a blocked request) and a 499 after a short wait are not evidence: they leave RESP-3 partly
 * checked. Judged when the capture ends, since an answered request to the operation may come after.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { OperationId } from '../../lib/contract.ts';
import type { JudgedExchange, NoAnswer } from '../../lib/capture/exchange.ts';
import type { RuleTallies } from './rule-tally.ts';

export const UNANSWERED_RULE = RULE['request-answered'];

/**
 * How long a client waited before a 499 or a status-0 entry without a cause counts as no answer: the suite's
 * bounded wait for one answer (PETSTORE_ANSWER_TIMEOUT_SECONDS' default).
 */
export const ANSWER_WAIT_MS = 15_000;

/** nginx: it closed the connection without a response (`return 444`), and the client closed it first. */
const CLOSED_WITHOUT_ANSWER = 444;
const CLIENT_GAVE_UP = 499;
/** A browser's words (HAR `_error`) for a connection that ended without an answer. */
const LOST = /CONNECTION_(RESET|CLOSED|ABORTED|FAILED)|EMPTY_RESPONSE|TIMED_OUT|socket hang up|ECONNRESET/i;

/** Whether the capture's status (and what came with it) says the request got no answer. */
export function noAnswerOf(status: number, waitedMs: number | undefined, error: string | undefined): NoAnswer | undefined {
  // Before anything is written: almost every exchange of a capture was answered.
  if (status !== 0 && status !== CLOSED_WITHOUT_ANSWER && status !== CLIENT_GAVE_UP) return undefined;
  const waited = waitedMs === undefined ? 'for a time the capture does not hold' : `${Math.round(waitedMs)} ms`;
  if (status === CLOSED_WITHOUT_ANSWER) return { certain: true, why: `the server closed the connection without an answer (444) after ${waited}` };
  if (status === CLIENT_GAVE_UP) {
    const long = waitedMs !== undefined && waitedMs >= ANSWER_WAIT_MS;
    return { certain: long, why: `the client closed the connection after waiting ${waited} for an answer (499)` };
  }
  if (error !== undefined && LOST.test(error)) return { certain: true, why: `no response: ${error} after ${waited}` };
  const long = waitedMs !== undefined && waitedMs >= ANSWER_WAIT_MS;
  return { certain: long, why: `no response (status 0${error ? `, ${error}` : ''}) after ${waited}` };
}

export class UnansweredRequests {
  private readonly answeredOperations = new Set<OperationId>();
  private readonly unanswered: Array<{ operation: OperationId; exchange: JudgedExchange; noAnswer: NoAnswer; key: string | undefined }> = [];

  constructor(
    private readonly tallies: RuleTallies,
    private readonly evidenceOf: (exchange: JudgedExchange) => { request: unknown; response: unknown },
  ) {}

  answered(operation: OperationId, key: string | undefined): void {
    this.answeredOperations.add(operation);
    this.tallies.judged(UNANSWERED_RULE, key);
  }

  add(operation: OperationId, exchange: JudgedExchange, noAnswer: NoAnswer, key: string | undefined): void {
    this.unanswered.push({ operation, exchange, noAnswer, key });
  }

  finish(): void {
    for (const { operation, exchange, noAnswer, key } of this.unanswered) {
      if (!noAnswer.certain) {
        this.tallies.unchecked(UNANSWERED_RULE, 'requests without an answer that the client may have ended itself (a status 0 without a cause, a 499 after a short wait): not counted either way');
      } else if (!this.answeredOperations.has(operation)) {
        this.tallies.unchecked(UNANSWERED_RULE, `requests to ${operation} without an answer, where the capture holds no answered request to ${operation}: a target down is not told from one dropping requests`);
      } else {
        const where = `${exchange.method} ${exchange.path}`;
        this.tallies.violated(UNANSWERED_RULE, `expected an answer to every request of ${operation}, got none to ${where}: ${noAnswer.why}, while other requests to ${operation} were answered (exchange ${exchange.number}${key ? `, key ${key}` : ''})`, this.evidenceOf(exchange));
      }
    }
  }
}
