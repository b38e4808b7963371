/**
 * The checks every response gets, whoever sent the request: the suite's validating client and the replay
 * harness call this one function, so "conforms to the contract" means the same thing everywhere.
 * Each finding names the rule of fixtures/rules.yaml it breaks. Its rate-limit judgements are exported one by one
 * too: a load generator's summed answers (harness/load/engine/refusal-sums.ts) are judged with them on what the sums
 * say, never through an answer made up to stand for them.
 */
import { RULE } from './checks/registry.ts';
import { bodySchemaFor, schemaProblems, type Operation, type OperationId } from './contract.ts';
import { BodyVerdicts, type BodyVerdict } from './body-verdicts.ts';
import { JsonBody } from './json-body.ts';
import { plans, type PlanId, type Quota } from './plans.ts';
import { wholeNumber } from './rate-limit-headers.ts';
import { retryAfterMs } from './rate-limiter/retry-after.ts';
import { ROUNDING_MS } from './rate-limiter/reading.ts';
import type { Violation } from './violation.ts';

export interface ResponseToCheck {
  /** The operation answered, as the contract states it: what placing the request found (placeRequest), or operation(id). */
  operation: Operation;
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /**
   * A JsonBody when the caller reads the tree too: it is then parsed once for both. Undefined where the caller does not
   * hold the body (a capture without it): nothing of the body is then judged.
   */
  body: string | JsonBody | undefined;
  /** The plan of the key the request carried, when that key is one the caller knows to be valid. */
  plan?: PlanId;
  /** The plan's quota in this run when it is not the documented one (an agreed Enterprise quota). */
  quota?: Quota;
  /** Milliseconds since the epoch at which the response arrived. */
  now?: number;
  /**
   * Milliseconds since the epoch at which the request left. The target decided between then and `now`, so a
   * window it reported may have ended by `now` (a slow answer, a fast target clock): Reset is held to this.
   */
  sentAt?: number;
  /**
   * How far the clock that timed `sentAt` may be from the target's (ms): a Reset up to this (and its whole second)
   * before the request left is no evidence of a Reset in the past. The suite, which reads the target's clock, leaves it
   * at its default; the judge passes its --clock-skew.
   */
  clockSkewMs?: number;
  /**
   * The request was outside the contract (lib/contract.ts): any client error with an Error body fits, a
   * documented success too (whether it is a lenient reading of the request is for the caller to judge), a
   * server error never.
   */
  outsideContract?: boolean;
  /**
   * The request was conditional (If-None-Match, If-Modified-Since: CONDITIONAL_HEADERS), or may have been: a 304 Not
   * Modified is then HTTP's answer to it (RFC 9110 section 15.4.5), whatever the operation documents, and has no body.
   */
  conditional?: boolean;
}

export type { Violation } from './violation.ts';

/** The request headers that make a GET conditional (RFC 9110 section 13.1.1 and 13.1.3), in lower case. */
export const CONDITIONAL_HEADERS: readonly string[] = ['if-none-match', 'if-modified-since'];

/** HTTP's answer to a conditional request whose copy is still current: documented by HTTP, not by the operation. */
export const NOT_MODIFIED = 304;

/** `violations`: where the findings go, after what it holds already (a new list unless given). */
export function checkResponse(response: ResponseToCheck, violations: Violation[] = []): Violation[] {
  const op = response.operation;
  const status = response.status;
  // HTTP's answer to a conditional request: no status of the operation's and no body, only the headers every answer carries.
  if (status === NOT_MODIFIED && response.conditional) {
    checkRateLimitHeaders(response, violations);
    return violations;
  }
  if (response.outsideContract) {
    if (!(status >= 400 && status < 500) && !op.statuses.has(status)) {
      violations.push({
        rule: RULE['documented-status'],
        message: `${op.id} answered ${status} to a request outside the contract, where any client error (4xx) with an Error body or a documented success fits${status >= 500 ? ': a server error never does' : ''}`,
      });
    }
  } else if (!op.statuses.has(status)) {
    violations.push({
      rule: RULE['documented-status'],
      message: `${op.id} answered ${response.status}, which the spec does not document for it (documented: ${[...op.statuses].join(', ')})`,
    });
  }
  if (response.body !== undefined) checkBody(response, response.body, response.outsideContract === true && status >= 400 && status < 500 && status !== 429, violations);
  checkRateLimitHeaders(response, violations);
  return violations;
}

/** The rate-limit headers of one answer, on what they say and when they were said (each judgement exported below). */
function checkRateLimitHeaders(response: ResponseToCheck, violations: Violation[]): void {
  const { headers, status } = response;
  const now = response.now ?? Date.now();
  rateLimitHeaderProblems(status, headers, response.plan, response.quota, violations);
  const resetProblem = resetTimeProblem(wholeNumber(headers['x-ratelimit-reset']), response.sentAt ?? now, now, response.clockSkewMs);
  if (resetProblem) violations.push(resetProblem);
  const retryProblem = status === 429 ? retryAfterProblem(headers['retry-after'], response.now) : undefined;
  if (retryProblem) violations.push(retryProblem);
}

/** The statuses whose body is an Error whatever the request (ERR-1). */
const ERROR_STATUSES = new Set([400, 401, 404]);

/** A few megabytes of answers' text: enough for every distinct answer of a long replay of this interface. */
const bodyVerdicts = new BodyVerdicts(2_000_000);

/** `errorDue`: an Error body is due whatever the status (a client error answering a request outside the contract). */
function checkBody(response: ResponseToCheck, given: string | JsonBody, errorDue: boolean, violations: Violation[]): void {
  const body = typeof given === 'string' ? new JsonBody(given) : given;
  const { operation, status } = response;
  // The remembered verdicts are those of answers that come again: an undocumented status's Error is judged each time,
  // and so is a creation's answer (the pet it made, new each time).
  const remembered = (!errorDue || ERROR_STATUSES.has(status)) && !(operation.id === 'createPet' && status === 201);
  let verdict = remembered ? bodyVerdicts.known(operation.id, status, body) : undefined;
  if (!verdict) {
    verdict = judgeBody(operation.id, status, body, errorDue);
    if (remembered) bodyVerdicts.remember(operation.id, status, body, verdict);
  }
  if (!verdict.empty) {
    const contentType = response.headers['content-type'] ?? '';
    if (!JSON_CONTENT_TYPE.test(contentType)) violations.push({ rule: RULE['json-body'], message: `expected Content-Type application/json, got ${contentType ? `"${contentType}"` : 'none'}` });
  }
  if (verdict.problems.length > 0) violations.push(...verdict.problems);
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The verdict of every body that earns nothing, one object shared by all of them: nearly every answer's, and checking
 * it (checkBody) then reads an object always at hand rather than one remembered per text, cold in cache.
 */
const NOTHING_WRONG: BodyVerdict = Object.freeze({ empty: false, problems: Object.freeze([]) });

/** What the body's text earns whatever the headers: empty where a body is due, not JSON, or not the schema. */
function judgeBody(operation: OperationId, status: number, body: JsonBody, errorDue: boolean): BodyVerdict {
  const schema = bodySchemaFor(operation, status);
  const isError = errorDue || ERROR_STATUSES.has(status);
  const json = body.json;
  if (json.kind === 'empty') {
    return { empty: true, problems: schema || isError ? [{ rule: isError ? RULE['error-body'] : RULE['body-shape'], message: `${status} came with an empty body; expected ${schema ?? 'Error'}` }] : [] };
  }
  if (json.kind === 'invalid') return { empty: false, problems: [{ rule: RULE['json-body'], message: `the body is not JSON (${json.reason})` }] };
  const parsed = json.value;
  const expected = schema ?? (isError ? 'Error' : undefined);
  if (!expected) return NOTHING_WRONG;
  const rule = expected === 'Error' ? RULE['error-body'] : RULE['body-shape'];
  const problems: Violation[] = schemaProblems(expected, parsed).map((problem) => ({ rule, message: `${status} body is not a valid ${expected}: ${problem}` }));
  if (expected === 'Error' && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const errorStatus = parsed.status;
    if (typeof errorStatus === 'number' && errorStatus !== status) {
      problems.push({ rule: RULE['error-status'], message: `Error.status is ${errorStatus} but the HTTP status is ${status}` });
    }
  }
  return problems.length === 0 ? NOTHING_WRONG : { empty: false, problems };
}

/** How far a caller that does not say may be off the target's clock. */
const DEFAULT_CLOCK_SKEW_MS = 4_000;
/** No documented window is longer than a day; a Reset further ahead than this is not a window's end. */
const RESET_HORIZON_SECONDS = 2 * 86_400;

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * What the X-RateLimit headers (names in lower case) say, whenever they were said: absent, not whole numbers, or a
 * Limit of no quota of the plan. `violations`: where the findings go (a new list unless given).
 */
export function rateLimitHeaderProblems(status: number, headers: Readonly<Record<string, string | undefined>>, plan?: PlanId, quota?: Quota, violations: Violation[] = []): Violation[] {
  if (headers['x-ratelimit-limit'] === undefined || headers['x-ratelimit-remaining'] === undefined || headers['x-ratelimit-reset'] === undefined) {
    const missing = RATE_LIMIT_HEADERS.filter((name) => headers[name] === undefined);
    violations.push({ rule: RULE['rate-limit-headers-present'], message: `${status} response lacks ${missing.join(', ')}` });
  }
  const limit = wholeNumber(headers['x-ratelimit-limit']);
  const remaining = wholeNumber(headers['x-ratelimit-remaining']);
  const reset = wholeNumber(headers['x-ratelimit-reset']);
  if (headers['x-ratelimit-limit'] !== undefined && limit === undefined) {
    violations.push({ rule: RULE['limit-value'], message: `X-RateLimit-Limit "${headers['x-ratelimit-limit']}" is not a whole number` });
  }
  if (headers['x-ratelimit-remaining'] !== undefined && (remaining === undefined || (limit !== undefined && remaining > limit))) {
    violations.push({
      rule: RULE['remaining-value'],
      message: `X-RateLimit-Remaining "${headers['x-ratelimit-remaining']}" is not a whole number from 0 to the limit (${headers['x-ratelimit-limit'] ?? 'absent'})`,
    });
  }
  if (headers['x-ratelimit-reset'] !== undefined && reset === undefined) {
    violations.push({ rule: RULE['reset-value'], message: `X-RateLimit-Reset "${headers['x-ratelimit-reset']}" is not a whole number of Unix seconds` });
  }
  const quotaProblem = limitQuotaProblem(limit, plan, quota);
  if (quotaProblem) violations.push(quotaProblem);
  return violations;
}

/** A Limit that is neither of the plan's quotas (`quota`: the plan's in this run, when not the documented one). */
export function limitQuotaProblem(limit: number | undefined, plan?: PlanId, quota?: Quota): Violation | undefined {
  const known = plan ? plans[plan] : undefined;
  const limits = quota ?? known?.documented;
  if (!known || !limits || limit === undefined || limit === limits.perMinute || limit === limits.perDay) return undefined;
  return { rule: RULE['limit-value'], message: `X-RateLimit-Limit is ${limit}, but a ${known.name} key's ${quota ? 'agreed' : 'documented'} limits are ${limits.perMinute} per minute and ${limits.perDay} per day` };
}

/**
 * A Reset (whole Unix seconds) that cannot be a window's end for a request that left at `sentAtMs` and was answered
 * at `nowMs`: before the request left (by more than `clockSkewMs` and Reset's own second), or more than two days ahead.
 */
export function resetTimeProblem(reset: number | undefined, sentAtMs: number, nowMs: number, clockSkewMs?: number): Violation | undefined {
  if (reset === undefined) return undefined;
  const sentSeconds = sentAtMs / 1000;
  if (reset >= sentSeconds - ((clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS) + ROUNDING_MS) / 1000 && reset <= nowMs / 1000 + RESET_HORIZON_SECONDS + (clockSkewMs ?? 0) / 1000) return undefined;
  return {
    rule: RULE['reset-value'],
    message: `X-RateLimit-Reset ${reset} is not a plausible Unix time in seconds (the request left at ${Math.floor(sentSeconds)}; expected from then to two days ahead)`,
  };
}

/** A 429's Retry-After (`answeredAt`: when it came, for an HTTP-date), absent or neither delta-seconds nor an HTTP-date. */
export function retryAfterProblem(retryAfter: string | undefined, answeredAt?: number): Violation | undefined {
  if (retryAfter === undefined) return { rule: RULE['retry-after-present'], message: '429 without a Retry-After header' };
  if (retryAfterMs(retryAfter, answeredAt) === undefined) return { rule: RULE['retry-after-format'], message: `Retry-After "${retryAfter}" is neither delta-seconds nor an HTTP-date` };
  return undefined;
}
