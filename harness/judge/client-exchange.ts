/**
 * One request of a client and the answer it got, as the client rules need it: which key sent it, when it left
 * and when its answer came, and what a refusal asked. Built from the judge's exchange (any capture) or from
 * the refusing server's own record (certify-client).
 */
import { RULE } from '../../lib/checks/registry.ts';

export interface ClientExchange {
  /** 1-based position in the capture. */
  number: number;
  /** The key's pseudonym ("free-1"): the client rules are judged per key. */
  key: string;
  method: string;
  /** Below the base URL, query included. */
  path: string;
  /** When the request left, ms since the epoch; undefined when the capture does not say (no duration). */
  sentAt: number | undefined;
  /** When the answer was complete, ms since the epoch. */
  answeredAt: number;
  status: number;
  /** The answer's Retry-After and Date headers as sent, if any. */
  retryAfter: string | undefined;
  date: string | undefined;
}

export const CLIENT_RULES = [RULE['client-waits-retry-after'], RULE['client-backs-off']] as const;
export type ClientRule = (typeof CLIENT_RULES)[number];

/** What one key's client did, for the report's clients part. */
export interface ClientStanding {
  key: string;
  requests: number;
  refusals: number;
  /** ERR-3: refusals whose Retry-After the client did not wait out, and the requests it sent within them. */
  unwaited: number;
  earlyRequests: number;
  /** ERR-4: refusals into whose wait the client sent more than one request, and runs whose waits did not grow. */
  bursts: number;
  flatRuns: number;
  /** The worst case of each rule the client broke. */
  worst: Partial<Record<ClientRule, string>>;
}
