/**
 * One entry of a capture as a JudgedExchange. Two shapes are read, told apart by their fields:
 * - a HAR 1.2 entry (`request` and `response` objects): a .har document, or a .har.ndjson line, from the
 *   recorder or any HAR tool;
 * - a line of the NDJSON exchange format (schemas/exchange.schema.json): flat, what a gateway's access log
 *   can write (docs/how-to/judge-traffic.md).
 * An entry outside the contract's paths (a page, a script, another API) gives undefined and is not judged. An
 * entry without an answer (HAR status 0, nginx's 444 and 499) is kept, marked `noAnswer`, for RESP-3 alone.
 */
import { captureTimeMs } from '../../lib/capture-time.ts';
import { CaptureInputError, type RawEntry } from '../../lib/capture/read.ts';
import { HarHeaders, addHeaderText, headerText } from '../../lib/capture/har-headers.ts';
import { STARTED_MS_READ } from '../../lib/capture/started-read-in-place.ts';
import { parsePlanId, type PlanId } from '../../lib/plans.ts';
import { REDACTED } from '../../lib/redact.ts';
import { CONDITIONAL_HEADERS, NOT_MODIFIED } from '../../lib/response-checks.ts';
import { SIGNAL_HEADERS } from '../../lib/deprecation-signals.ts';
import type { CredentialForm, JudgedExchange, KeyIdentity, NoAnswer } from '../../lib/capture/exchange.ts';
import type { KeyBook } from './key-book.ts';
import { noAnswerOf } from './unanswered.ts';
import { OperationPaths, type UrlReading } from './operation-paths.ts';
import { TwoKeyMemory } from './two-key-memory.ts';
import { BoundedMemo } from '../../lib/bounded-memo.ts';

interface LooseHarEntry {
  startedDateTime?: unknown;
  /** startedDateTime read as a time already, where the capture's reading thread did (lib/capture/started-read-in-place.ts). */
  [STARTED_MS_READ]?: number;
  time?: unknown;
  request?: { method?: unknown; url?: unknown; headers?: unknown; postData?: { text?: unknown; mimeType?: unknown } };
  response?: { status?: unknown; headers?: unknown; content?: { text?: unknown; encoding?: unknown }; _error?: unknown };
  /** A browser's cause for a request without a response (Chrome: net::ERR_CONNECTION_RESET). */
  _error?: unknown;
  /** Chrome's mark of an answer its own cache gave ("memory", "disk"): the request never reached the target. */
  _fromCache?: unknown;
}

interface LooseExchange {
  time?: unknown;
  duration?: unknown;
  method?: unknown;
  url?: unknown;
  status?: unknown;
  key?: unknown;
  plan?: unknown;
  requestHeaders?: unknown;
  requestBody?: unknown;
  responseHeaders?: unknown;
  responseBody?: unknown;
}

export interface CaptureReading {
  /**
   * Whether the capture's HAR entries hold the Authorization header where it was sent. False for a HAR none of
   * whose entries carries one (a browser's sanitized export): an entry without it then means "not captured",
   * not "no key sent".
   */
  harAuthorization: boolean;
}

// Runs for every exchange of a capture: so no closure is made per call.
export function toJudgedExchange(raw: RawEntry, file: string, keys: KeyBook, reading: CaptureReading = { harAuthorization: true }): JudgedExchange | undefined {
  const entry = raw.entry as LooseHarEntry & LooseExchange;
  const where: Where = { file, number: raw.number };
  if (typeof entry.request === 'object' && entry.request !== null) return fromHar(raw.number, entry, keys, where, reading.harAuthorization);
  return fromExchangeLine(raw.number, entry, keys, where);
}

interface Where {
  file: string;
  number: number;
}

function bad(where: Where, what: string): never {
  throw new CaptureInputError(`${where.file}: entry ${where.number} ${what}`);
}

function fromHar(number: number, entry: LooseHarEntry, keys: KeyBook, where: Where, authorizationCaptured: boolean): JudgedExchange | undefined {
  // The browser's copy of an earlier answer, its headers as the target sent them then: judged as the target's, it
  // would count the admission twice in its window and name a Reset long past.
  if (typeof entry._fromCache === 'string' && entry._fromCache !== '') return undefined;
  const request = entry.request ?? bad(where, 'has no "request"');
  const response = entry.response ?? bad(where, 'has no "response"');
  if (typeof request.method !== 'string') bad(where, 'has no request.method');
  if (typeof response.status !== 'number') bad(where, 'has no numeric response.status');
  const started = entry[STARTED_MS_READ] ?? (typeof entry.startedDateTime === 'string' ? captureTimeMs(entry.startedDateTime) : NaN);
  if (Number.isNaN(started)) bad(where, 'has no startedDateTime that is a date (ISO 8601)');
  const waited = typeof entry.time === 'number' && entry.time >= 0 ? entry.time : undefined;
  const noAnswer = noAnswerOf(response.status as number, waited, causeOf(response._error) ?? causeOf(entry._error));
  const requestHeaders = headerRecord(request.headers, where, 'request.headers');
  const content = response.content;
  const responseBody = typeof content?.text === 'string' ? (content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text) : undefined;
  const postData = request.postData;
  return build(number, request.method as string, String(request.url), where, keys, {
    answeredAt: started + (waited ?? 0),
    sentAt: started,
    status: response.status as number,
    requestHeaders,
    requestBody: typeof postData?.text === 'string' ? postData.text : undefined,
    requestContentType: requestHeaders['content-type'] ?? (typeof postData?.mimeType === 'string' && postData.mimeType ? postData.mimeType : undefined),
    responseHeaders: headerRecord(response.headers, where, 'response.headers'),
    responseBody,
    named: undefined,
    signalsNotLogged: NOT_LOGGED_NONE,
    authorizationKnown: authorizationCaptured && headerCount(request.headers) > 0,
    noAnswer,
    conditional: response.status === NOT_MODIFIED && CONDITIONAL_HEADERS.some((name) => requestHeaders[name] !== undefined) ? true : undefined,
  });
}

/** How many headers a HAR list holds (0 where there is none). */
function headerCount(headers: unknown): number {
  if (headers instanceof HarHeaders) return headers.count;
  return Array.isArray(headers) ? headers.length : 0;
}

/** A browser's cause for a request without a response, where it wrote one. */
function causeOf(error: unknown): string | undefined {
  return typeof error === 'string' && error !== '' ? error : undefined;
}

function fromExchangeLine(number: number, entry: LooseExchange, keys: KeyBook, where: Where): JudgedExchange | undefined {
  if (typeof entry.method !== 'string' || !/^[A-Za-z]+$/.test(entry.method)) bad(where, 'has no "method" (e.g. "GET"); expected a HAR entry or a line of the exchange format (schemas/exchange.schema.json)');
  if (typeof entry.url !== 'string' || entry.url === '') bad(where, 'has no "url" (the request\'s URL, or its path and query as sent)');
  const status = wholeNumberOf(entry.status);
  if (status === undefined || status < 100 || status > 599) bad(where, `has a "status" that is not an HTTP status from 100 to 599: ${JSON.stringify(entry.status)}`);
  const answeredAt = timeOf(entry.time) ?? bad(where, `has a "time" that is neither Unix seconds nor an ISO 8601 date: ${JSON.stringify(entry.time)}`);
  if (answeredAt >= LATEST_TIME_MS) bad(where, `has a "time" of ${JSON.stringify(entry.time)}, after the year 5000 if read as Unix seconds: milliseconds or finer? "time" is Unix seconds, fractions allowed (nginx: $msec)`);
  const duration = entry.duration === undefined || entry.duration === '' ? undefined : secondsOf(entry.duration);
  if (entry.duration !== undefined && entry.duration !== '' && duration === undefined) bad(where, `has a "duration" that is not a number of seconds: ${JSON.stringify(entry.duration)}`);
  const requestHeaders = headerRecord(entry.requestHeaders, where, '"requestHeaders"', true);
  const requestNames = namesWritten(entry.requestHeaders, REQUEST_NAMES);
  let named: KeyIdentity | undefined;
  if (typeof entry.key === 'string' && entry.key !== '') {
    let plan: PlanId | undefined;
    try {
      const loggedPlan = loggedValue(entry.plan);
      plan = loggedPlan === undefined ? undefined : parsePlanId(loggedPlan);
    } catch (error) {
      bad(where, `has a "plan" that ${(error as Error).message.replace(/^unknown plan/, 'is not a plan:')}`);
    }
    named = keys.named(entry.key, plan);
  }
  return build(number, entry.method as string, entry.url as string, where, keys, {
    answeredAt,
    sentAt: duration === undefined ? undefined : answeredAt - duration * 1000,
    status: status as number,
    requestHeaders,
    requestBody: loggedValue(entry.requestBody),
    requestContentType: requestHeaders['content-type'],
    responseHeaders: headerRecord(entry.responseHeaders, where, '"responseHeaders"', true),
    responseBody: loggedValue(entry.responseBody),
    named,
    signalsNotLogged: SIGNALS_NOT_LOGGED[namesWritten(entry.responseHeaders, SIGNAL_HEADERS)] as readonly string[],
    authorizationKnown: (requestNames & AUTHORIZATION_WRITTEN) !== 0,
    noAnswer: noAnswerOf(status as number, duration === undefined ? undefined : duration * 1000, undefined),
    conditional: status === NOT_MODIFIED ? conditionalLogged(requestNames, requestHeaders) : undefined,
  });
}

interface Parts {
  answeredAt: number;
  sentAt: number | undefined;
  status: number;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  requestContentType: string | undefined;
  responseHeaders: Record<string, string>;
  responseBody: string | undefined;
  /** A key the capture named itself (the exchange format's "key"). */
  named: KeyIdentity | undefined;
  /** Whether the capture says what Authorization the request carried, none included. */
  authorizationKnown: boolean;
  signalsNotLogged: readonly string[];
  noAnswer: NoAnswer | undefined;
  conditional: true | 'not-logged' | undefined;
}

/** Whether a log line's 304 answered a conditional request: 'not-logged' where the line writes neither header, not even empty. */
function conditionalLogged(requestNames: number, requestHeaders: Record<string, string>): true | 'not-logged' | undefined {
  if (CONDITIONAL_HEADERS.some((name) => requestHeaders[name] !== undefined)) return true;
  return (requestNames & CONDITIONAL_WRITTEN) !== 0 ? undefined : 'not-logged';
}

/** What a HAR entry says of the signals it does not hold: nothing (a HAR holds every header the answer had). */
const NOT_LOGGED_NONE: readonly string[] = [];

/**
 * The deprecation signals a log line does not write at all, by which of them it writes (a bit each, in the order of
 * SIGNAL_HEADERS): made once, not per line.
 */
const SIGNALS_NOT_LOGGED: ReadonlyArray<readonly string[]> = Array.from({ length: 1 << SIGNAL_HEADERS.length }, (_, written) => SIGNAL_HEADERS.filter((_, at) => (written & (1 << at)) === 0));

/** The request headers whose mere writing by a log says something: Authorization (a key or none), then the conditional ones. */
const REQUEST_NAMES: readonly string[] = ['authorization', ...CONDITIONAL_HEADERS];
const AUTHORIZATION_WRITTEN = 1;
const CONDITIONAL_WRITTEN = ((1 << CONDITIONAL_HEADERS.length) - 1) << 1;

/** Which of `names` (lower case) a log line's headers write, even empty: a bit each, in their order. */
function namesWritten(headers: unknown, names: readonly string[]): number {
  let written = 0;
  if (typeof headers !== 'object' || headers === null) return written;
  for (const name in headers) {
    const at = names.indexOf(name.toLowerCase());
    if (at >= 0) written |= 1 << at;
  }
  return written;
}

/** Shared by every capture read in this process: where a URL lands depends on the URL alone. */
const operationPaths = new OperationPaths();

function build(number: number, method: string, url: string, where: Where, keys: KeyBook, parts: Parts): JudgedExchange | undefined {
  const upper = method.toUpperCase();
  let reading: UrlReading | undefined;
  try {
    reading = operationPaths.readingOf(upper, url);
  } catch {
    return bad(where, `has a URL that cannot be read: ${JSON.stringify(keys.redactor.text(url).slice(0, 80))}`);
  }
  if (reading === undefined) return undefined;
  const credential = credentialOf(parts, keys);
  // What the exchange carries by position, as `learnCarried` learns it whole: the URL's (read once per URL), the request's, the answer's.
  for (const secret of reading.carried) keys.redactor.learn(secret);
  keys.redactor.learnCarried({ headers: parts.requestHeaders, body: parts.requestBody });
  keys.redactor.learnCarried({ headers: parts.responseHeaders });
  // Every member always, the optional ones undefined where absent: one shape for every exchange the judge reads.
  return {
    number,
    method: upper,
    path: reading.path,
    answeredAt: parts.answeredAt,
    sentAt: parts.sentAt,
    status: parts.status,
    key: credential.key,
    credential: credential.form,
    authorizationShown: credential.shown,
    requestContentType: parts.requestContentType,
    requestBody: parts.requestBody,
    responseHeaders: parts.responseHeaders,
    responseBody: parts.responseBody,
    signalsNotLogged: parts.signalsNotLogged.length > 0 ? parts.signalsNotLogged : undefined,
    noAnswer: parts.noAnswer,
    conditional: parts.conditional,
  };
}

/** A value a sanitizing export writes in place of the credential: the capture says it does not hold it. */
const SANITIZED = /^(\[(sanitized|redacted|removed|filtered)\]|<(sanitized|redacted|removed|filtered)>|redacted|sanitized|\*+|x{3,})$/i;

interface Credential {
  form: CredentialForm;
  key: KeyIdentity | undefined | 'unknown';
  shown: string | undefined;
}

const NO_CREDENTIAL: Credential = { form: 'none', key: undefined, shown: undefined };
const NOT_CAPTURED: Credential = { form: 'not-captured', key: 'unknown', shown: undefined };

/** What a key a capture named stands for where the request's header is not in it: made once per key. */
const namedWithoutHeader = new WeakMap<KeyIdentity, Credential>();

/**
 * What each Authorization header presented, by the key the capture named beside it (none in a HAR) and the header,
 * per key book (the pseudonyms are its): a capture sends each key's header thousands of times, and reading it again
 * (its scheme, its key, the text shown) cost a tenth of turning each entry into an exchange. Bounded.
 */
const credentialsRead = new WeakMap<KeyBook, TwoKeyMemory<Credential, KeyIdentity | undefined>>();
const MAX_CREDENTIALS_READ = 16_384;

/**
 * The key a request carried, read from its Authorization header: a key counts only when sent as a bearer
 * token, whatever else the capture says. A key the capture named (a gateway's pseudonym) stands for the header's
 * token, which such a log leaves out or redacts; named with no header at all, the gateway is taken at its word.
 */
function credentialOf(parts: Parts, keys: KeyBook): Credential {
  const authorization = parts.requestHeaders.authorization;
  const named = parts.named;
  if (authorization === undefined) {
    if (!named) return parts.authorizationKnown ? NO_CREDENTIAL : NOT_CAPTURED;
    let credential = namedWithoutHeader.get(named);
    if (!credential) namedWithoutHeader.set(named, (credential = { form: 'bearer', key: named, shown: `Bearer <key ${named.pseudonym}>` }));
    return credential;
  }
  let read = credentialsRead.get(keys);
  if (!read) credentialsRead.set(keys, (read = new TwoKeyMemory(MAX_CREDENTIALS_READ)));
  const known = read.get(named, authorization);
  if (known) return known;
  const credential = credentialIn(authorization, named, keys);
  // Another scheme's token, or a bare one, is shown as a key only once the book knows it as one: read again each time.
  if (credential.form !== 'other-form') read.set(named, authorization, credential);
  return credential;
}

function credentialIn(authorization: string, named: KeyIdentity | undefined, keys: KeyBook): Credential {
  if (SANITIZED.test(authorization.trim())) return { form: 'not-captured', key: 'unknown', shown: authorization.trim() };
  const read = keys.read(authorization);
  if (read.form !== 'bearer' && read.form !== 'bearer-other-case') return { form: read.form, key: undefined, shown: read.shown };
  const key = named ?? read.key;
  return { form: read.form, key, shown: key && !read.key ? read.shown.replace(REDACTED, `<key ${key.pseudonym}>`) : read.shown };
}

/**
 * What nginx writes for a variable without a value (a header the message did not have, no body) in a log_format
 * without escape=json: a log line's "-" is absent, as its "" is.
 */
const NGINX_NO_VALUE = '-';

/** A log line's text field, undefined where it holds none: "" or nginx's "-". */
function loggedValue(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value !== NGINX_NO_VALUE ? value : undefined;
}

/**
 * Headers as a record with lower-case names, from HAR's [{name, value}] (or the record the reader built of it already,
 * har-headers.ts) or the exchange format's object.
 * `emptyIsAbsent`: a gateway's log writes "" (or nginx's "-") for a header the message did not have.
 */
function headerRecord(value: unknown, at: Where, part: string, emptyIsAbsent = false): Record<string, string> {
  if (value instanceof HarHeaders) return value.record;
  const record: Record<string, string> = {};
  if (value === undefined || value === null) return record;
  if (Array.isArray(value)) {
    for (const pair of value as Array<{ name?: unknown; value?: unknown }>) {
      if (typeof pair?.name !== 'string') bad(at, `has ${part} that are not a list of {name, value}`);
      addHeader(record, pair.name as string, headerText(pair.value), emptyIsAbsent);
    }
    return record;
  }
  if (typeof value !== 'object') return bad(at, `has ${part} that are neither an object of names and values nor a HAR list`);
  for (const name in value) {
    const text = (value as Record<string, unknown>)[name];
    if (typeof text !== 'string') bad(at, `has ${part} whose "${name}" is not a string`);
    addHeader(record, name, text as string, emptyIsAbsent);
  }
  return record;
}

function addHeader(record: Record<string, string>, name: string, text: string, emptyIsAbsent: boolean): void {
  if (emptyIsAbsent && loggedValue(text) === undefined) return;
  addHeaderText(record, lowerCaseName(name), text);
}

/**
 * Header names in lower case, by the name as written: a capture writes the same few on every entry, and a name met
 * again is then the same string as the record's member, not one to be lowered and looked up as a member again.
 */
const lowerCaseNames = new BoundedMemo<string, string>(4_096);

function lowerCaseName(name: string): string {
  let lower = lowerCaseNames.get(name);
  if (lower === undefined) lowerCaseNames.set(name, (lower = name.toLowerCase()));
  return lower;
}

const NUMBER = /^\s*\d+(\.\d+)?\s*$/;

function secondsOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && NUMBER.test(value) ? Number(value) : undefined;
}

function wholeNumberOf(value: unknown): number | undefined {
  const number = secondsOf(value);
  return number !== undefined && Number.isInteger(number) ? number : undefined;
}

/**
 * The latest capture time read as one: 10^11 Unix seconds, the year 5138. Beyond it the number is a logger's
 * milliseconds, microseconds or nanoseconds since the epoch (Kong's logs write started_at in milliseconds), never
 * seconds: read as seconds, every Reset the target sent would be thousands of years in the past, and the target
 * would be failed (RL-7) for the capture's unit.
 */
const LATEST_TIME_MS = 1e11 * 1000;

/** Milliseconds since the epoch from Unix seconds (a number or its text, fractions allowed) or an ISO 8601 date. */
function timeOf(value: unknown): number | undefined {
  const seconds = secondsOf(value);
  if (seconds !== undefined) return seconds * 1000;
  if (typeof value !== 'string') return undefined;
  const ms = captureTimeMs(value);
  return Number.isNaN(ms) ? undefined : ms;
}
