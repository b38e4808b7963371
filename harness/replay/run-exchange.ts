/**
 * One exchange of a replay: send the recorded request to the target (ids remapped, the target's key in
 * place of the placeholder, 429s waited out), then check the answer against the contract with the suite's
 * own checks and compare it with the recorded answer.
 *
 * Recorded 429s: the refusal is part of what was recorded, so the request is sent once, never retried,
 * and a 429 at replay is the expected answer (status compared only: Retry-After and the body are volatile).
 * When the target does not refuse it this time, that is reported with the throttling figures, not as a
 * difference: quotas depend on everything else that used the key, not on the implementation alone.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { classifyRequest, type Operation, type OperationId } from '../../lib/contract.ts';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from '../../lib/backoff.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import type { HttpClient } from '../../lib/http/client.ts';
import type { PlainRequest } from '../../lib/http/request-bytes.ts';
import { checkResponse, CONDITIONAL_HEADERS, type Violation } from '../../lib/response-checks.ts';
import { judgeRequestAnswer } from '../../lib/request-rules.ts';
import type { CaptureBase } from '../../lib/capture/base.ts';
import { compareResponses, type ComparableResponse, type Difference } from './compare.ts';
import type { CredentialResolver } from './credentials.ts';
import type { RecordedExchange } from './exchange.ts';
import { createdId, createdIdIn, type IdMap } from './id-map.ts';
import type { IgnoreSet } from './ignore.ts';
import type { ThrottleGates } from './throttle.ts';

export type Verdict = 'identical' | 'different' | 'violation' | 'throttled' | 'error';

export interface ExchangeResult {
  /** 1-based position among the exchanges replayed. */
  sequence: number;
  /** 1-based position in the capture. */
  entry: number;
  operation: OperationId | undefined;
  method: string;
  /** Recorded path and query below the base, e.g. /pets/17. */
  path: string;
  /** What was sent, after id remapping, e.g. /pets/3. */
  sentPath: string;
  /** As recorded: placeholders, never keys. */
  requestHeaders: Array<[string, string]>;
  requestBody: string | undefined;
  recorded: ComparableResponse & { ms: number | undefined };
  replayed: (ComparableResponse & { ms: number }) | undefined;
  violations: Violation[];
  differences: Difference[];
  throttle: { retries: number; waitedMs: number; gaveUp: boolean };
  recorded429: 'reproduced' | 'not-reproduced' | undefined;
  error: string | undefined;
  verdict: Verdict;
  /** Milliseconds since the epoch when the exchange was done. */
  finishedAt: number;
}

export interface ReplayContext {
  base: CaptureBase;
  /** The target's base URL, without a trailing slash. */
  target: string;
  /** Its path ("/v1", or "" at the root), which request paths go below. */
  targetPath: string;
  client: HttpClient;
  credentials: CredentialResolver;
  ids: IdMap;
  ignore: IgnoreSet;
  gates: ThrottleGates;
  backoff?: BackoffPolicy;
  /**
   * False: answers are neither checked nor compared, only sent in causal order with ids remapped. Only the
   * benchmark sets it, for its "ordered, nothing checked" peer, which shows what checking costs.
   */
  checks?: boolean;
}

/** Not sent again: they describe the recorded connection, or are recomputed, or replaced. */
const NOT_REPLAYED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'authorization', 'proxy-authorization', 'te', 'upgrade', 'trailer']);

/** Where an exchange stands in the causal order (ordering.ts). */
export interface OrderRole {
  /** Later exchanges may wait for this one. */
  awaited: boolean;
  /** Called once the answer is in and a created id learned: what waited for it may go. */
  finish(): void;
}

/**
 * `operation`: the contract's operation for the recorded method and path, if any. The exchanges waiting for
 * this one are released as soon as its answer is in, and its checks run on a later turn, so that their
 * requests are on the wire while this answer is checked.
 */
export async function replayExchange(recorded: RecordedExchange, sequence: number, pathBelow: string, operation: Operation | undefined, context: ReplayContext, order: OrderRole): Promise<ExchangeResult> {
  const { ids, credentials, gates } = context;
  const search = recorded.url.search;
  const sentPathOnly = ids.remapPath(pathBelow);
  const body = ids.remapBody(recorded.json);

  const headers: Array<[string, string]> = [];
  let authorization: string | undefined;
  for (const [name, value] of recorded.headers) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') authorization = value;
    if (NOT_REPLAYED.has(lower) || lower.startsWith(':')) continue;
    addHeader(headers, lower, value);
  }
  const credential = authorization === undefined ? undefined : credentials.resolve(authorization);
  if (credential) headers.push(['authorization', credential.header]);
  const gate = credential?.header ?? '';

  const result: ExchangeResult = {
    sequence,
    entry: recorded.number,
    operation: operation?.id,
    method: recorded.method,
    path: pathBelow + search,
    sentPath: sentPathOnly + search,
    requestHeaders: recorded.headers,
    requestBody: recorded.body,
    recorded: { status: recorded.response.status, headers: recorded.response.headers, body: recorded.response.body, ms: recorded.recordedMs },
    replayed: undefined,
    violations: [],
    differences: [],
    throttle: { retries: 0, waitedMs: 0, gaveUp: false },
    recorded429: undefined,
    error: undefined,
    verdict: 'identical',
    finishedAt: 0,
  };

  const request = { method: recorded.method, url: context.targetPath + sentPathOnly + search, headers, body };
  const policy = context.backoff ?? DEFAULT_BACKOFF;
  const expectRefusal = recorded.response.status === 429;
  let response: Answer;
  try {
    for (;;) {
      if (!gates.isOpen(gate)) result.throttle.waitedMs += await gates.pass(gate);
      response = await send(context.client, request, order.awaited);
      if (response.status !== 429) break;
      const asked = retryAfterMs(response.headers['retry-after'], response.receivedAt);
      if (expectRefusal) {
        gates.hold(gate, response.receivedAt + (asked ?? policy.baseMs));
        break;
      }
      result.throttle.retries++;
      gates.hold(gate, response.receivedAt + backoffDelayMs(result.throttle.retries, asked, policy));
      if (result.throttle.retries >= policy.maxAttempts) {
        result.throttle.gaveUp = true;
        break;
      }
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    result.verdict = 'error';
    result.finishedAt = Date.now();
    return result;
  }
  result.replayed = { status: response.status, headers: response.headers, body: response.body, ms: response.ms };
  const replayedJson = new JsonBody(response.body);
  if (recorded.method === 'POST' && isSuccess(recorded.response.status) && isSuccess(response.status)) {
    const recordedId = createdIdIn(recorded.response.json);
    const replayedId = createdId(replayedJson.value);
    if (recordedId !== undefined && replayedId !== undefined) ids.learn(recordedId, replayedId);
  }
  order.finish();
  if (context.checks === false) {
    result.finishedAt = Date.now();
    return result;
  }
  await nextTurn();

  if (operation) {
    result.violations = checkResponse({
      operation,
      status: response.status,
      headers: response.headers,
      body: replayedJson,
      plan: response.status === 401 ? undefined : credential?.plan,
      now: response.receivedAt,
      conditional: headers.some(([name]) => CONDITIONAL_HEADERS.includes(name)),
    });
    // The rules one exchange shows beyond the contract, as the judge applies them to captured traffic.
    const requestContentType = headers.find(([name]) => name === 'content-type')?.[1];
    const kind = classifyRequest({ operation: operation.id, method: recorded.method, path: sentPathOnly + search, ...(requestContentType === undefined ? {} : { contentType: requestContentType }), ...(body === undefined ? {} : { body }) }).kind;
    result.violations.push(
      ...judgeRequestAnswer({
        operation: operation.id,
        method: recorded.method,
        path: sentPathOnly + search,
        requestContentType,
        requestBody: body,
        credential: authorization === undefined ? 'none' : credential?.plan ? 'configured' : 'other',
        kind,
        status: response.status,
        responseHeaders: response.headers,
        responseBody: replayedJson,
      }).violations,
    );
  }

  if (expectRefusal) {
    result.recorded429 = response.status === 429 ? 'reproduced' : 'not-reproduced';
  } else if (!result.throttle.gaveUp) {
    result.differences = compareResponses(recorded.response, result.replayed, {
      rules: context.ignore.forOperation(operation?.id),
      ids,
      rebase: (url) => context.base.rebase(url, context.target),
      recordedJson: recorded.response.json,
      replayedJson,
    });
  }
  result.verdict =
    result.violations.length > 0 ? 'violation' : result.throttle.gaveUp ? 'throttled' : result.differences.length > 0 ? 'different' : 'identical';
  result.finishedAt = Date.now();
  return result;
}

/** A repeated header joins the first, as a proxy may combine them. */
function addHeader(headers: Array<[string, string]>, name: string, value: string): void {
  for (const pair of headers) {
    if (pair[0] === name) {
      pair[1] = `${pair[1]}, ${value}`;
      return;
    }
  }
  headers.push([name, value]);
}

/** A response as replay keeps it: the body as text, and when and how fast it came. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds since the epoch when the body had arrived. */
  receivedAt: number;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
}

/** Rejects with the client's RequestError, whose message says what failed in words (connection refused by ...). */
async function send(client: HttpClient, request: PlainRequest, awaited: boolean): Promise<Answer> {
  const started = performance.now();
  const response = await client.request(request, awaited);
  return { status: response.status, headers: response.headers, body: response.body.toString('utf8'), receivedAt: Date.now(), ms: performance.now() - started };
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
