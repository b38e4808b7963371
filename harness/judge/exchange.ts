/**
 * One exchange as the judge reads it, whatever the capture it came from (a HAR entry, a line of the NDJSON
 * exchange format, the recording proxy, a replay). Parts a capture may leave out (bodies, the request's
 * headers, when it was sent) are undefined, and the rules that need them are then not judged on it.
 */
import type { PlanId } from '../../lib/plans.ts';

export interface KeyIdentity {
  /** Stands for the key in everything written: never the key itself ("free-1", "pro-2", "unknown-1"). */
  pseudonym: string;
  /** The key's plan, when PETSTORE_API_KEY_<PLAN> or a recording's placeholder names it. */
  plan: PlanId | undefined;
}

export interface JudgedExchange {
  /** 1-based position in the capture. */
  number: number;
  method: string;
  /** Below the service's base URL, query included: /pets?status=sold. */
  path: string;
  /** Milliseconds since the epoch when the answer was complete, and when the request left (if known). */
  answeredAt: number;
  sentAt: number | undefined;
  status: number;
  /**
   * The credential as a key: undefined when the request carried no Authorization header, 'unknown' when the
   * capture does not say.
   */
  key: KeyIdentity | undefined | 'unknown';
  /** The Authorization scheme ("Bearer"), when the request carried one. */
  scheme: string | undefined;
  requestContentType: string | undefined;
  /** undefined: the capture holds no request body (not the same as an empty one, which is ''). */
  requestBody: string | undefined;
  /** Header names in lower case. */
  responseHeaders: Readonly<Record<string, string>>;
  /** undefined: the capture holds no response body. */
  responseBody: string | undefined;
}
