/**
 * One exchange as the judge reads it, whatever the capture it came from (a HAR entry, a line of the NDJSON
 * exchange format, the recording proxy, a replay). Parts a capture may leave out (bodies, the request's
 * headers, when it was sent) are undefined, and the rules that need them are then not judged on it.
 */
import type { PlanId } from '../plans.ts';

export interface KeyIdentity {
  /** Stands for the key in everything written: never the key itself ("free-1", "pro-2", "unknown-1"). */
  pseudonym: string;
  /** The key's plan, when PETSTORE_API_KEY_<PLAN> or a recording's placeholder names it. */
  plan: PlanId | undefined;
}

/**
 * How the request presented a key: 'bearer' as the spec says ("bearer-other-case": a scheme not spelt
 * "Bearer", which AUTH-7 asks to accept), 'other-form' (another scheme or a bare key), 'empty-bearer',
 * 'malformed' (a bearer header of another shape), 'none' (no Authorization header) or 'not-captured' (the
 * capture does not say, as a sanitized HAR or a log without the field).
 */
export type CredentialForm = 'bearer' | 'bearer-other-case' | 'other-form' | 'empty-bearer' | 'malformed' | 'none' | 'not-captured';

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
   * The key the request carried as the spec says (a bearer token, or one the capture named): undefined when it
   * carried none or none that counts (see `credential`), 'unknown' when the capture does not say.
   */
  key: KeyIdentity | undefined | 'unknown';
  credential: CredentialForm;
  /** The Authorization header as evidence may show it: a key as its pseudonym, any other credential redacted. */
  authorizationShown: string | undefined;
  requestContentType: string | undefined;
  /** undefined: the capture holds no request body (not the same as an empty one, which is ''). */
  requestBody: string | undefined;
  /** Header names in lower case. */
  responseHeaders: Readonly<Record<string, string>>;
  /** undefined: the capture holds no response body. */
  responseBody: string | undefined;
  /**
   * Deprecation signals' headers (Deprecation, Sunset, Link) a log line does not write at all, not even empty: a
   * gateway's log writes the headers its format names, so a signal there is not seen. Absent: all are captured.
   */
  signalsNotLogged?: readonly string[];
  /** Set when the capture holds the request without an answer (RESP-3): `status` is then what the capture wrote (0, 444, 499). */
  noAnswer?: NoAnswer;
  /**
   * Set on a 304 only: its request was conditional (If-None-Match, If-Modified-Since), to which a 304 is HTTP's
   * answer; 'not-logged' where a log line writes neither header, not even empty, so that whether it was is not known.
   */
  conditional?: true | 'not-logged';
}

/** What a capture says of a request it holds no answer to. */
export interface NoAnswer {
  /** False when the client may have ended the request itself (a browser navigating away, a short 499). */
  certain: boolean;
  why: string;
}
