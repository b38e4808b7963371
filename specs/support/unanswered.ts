/**
 * A request that was sent and got no answer: none within the run's bounded wait, or its connection closed or
 * reset before a response came. That is evidence against RESP-3 once another request to the same operation is
 * answered (a target that answers nothing is down, and the run says it could not complete). Any other failure
 * to send (a refused connection, a name that does not resolve, a response that cannot be read) is not this.
 */
import { RULE } from '../../lib/checks/registry.ts';

/** The rule a request that got no answer breaks (fixtures/rules.yaml says why it is a MUST). */
export const UNANSWERED_RULE = RULE['request-answered'];

/** The status an exchange without a response carries, as a HAR entry of a request that got none does. */
export const NO_RESPONSE_STATUS = 0;

export type UnansweredHow = 'no answer in time' | 'connection closed';

export class Unanswered extends Error {
  constructor(
    message: string,
    readonly how: UnansweredHow,
  ) {
    super(message);
    this.name = 'Unanswered';
  }
}

/** Playwright's and Node's words for a connection closed or reset without an answer. */
const CLOSED = /socket hang up|ECONNRESET|closed the connection before answering|reset the connection|other side closed/;
/** Playwright's and the shared client's words for no answer within the wait. */
const TIMED_OUT = /Timeout \d+ms exceeded|no answer within/;

/** What went wrong sending `request`, as an Unanswered when it was one, the message naming the request and never a header. */
export function sendFailure(request: { method: string; url: string }, reason: string): Error {
  const message = `${request.method} ${request.url} failed: ${reason}`;
  if (TIMED_OUT.test(reason)) return new Unanswered(message, 'no answer in time');
  if (CLOSED.test(reason)) return new Unanswered(message, 'connection closed');
  return new Error(message);
}
