/**
 * The rules one exchange can show beyond the contract check every response gets (lib/response-checks.ts):
 * what the answer must be given what was asked. A list filtered by status holds only that status (LIST-1),
 * pages hold no more than asked (LIST-2, -3, -4), a list is a plain array (LIST-5), a valid NewPet is
 * created as sent (CREATE-1), an invalid one refused (CREATE-2, -3, -4), a request without a key refused
 * and a configured key accepted (AUTH-1, AUTH-5), getPet's deprecation headers right (DEP-2, DEP-3), and no other
 * operation's answer signalling a deprecation (VER-3).
 * The judge and replay both call it, so a replayed answer is judged as a captured one is.
 *
 * Requests outside the contract (lib/contract.ts) are left to the contract check, and nothing is
 * judged on what the capture does not hold (a body a gateway's log left out).
 */
import { RULE } from './checks/registry.ts';
import { isCanonical, operation as operationById, type ContractSchema, type OperationId, type RequestKind, schemaProblems } from './contract.ts';
import { BoundedMemo } from './bounded-memo.ts';
import { listQuery } from './list-query.ts';
import { JsonBody } from './json-body.ts';
import type { LosslessValue } from './lossless-json.ts';
import { parseHttpDate } from './rate-limit-headers.ts';
import { misplacedDeprecation } from './deprecation-signals.ts';
import type { Violation } from './response-checks.ts';
import type { JudgedExchange } from './capture/exchange.ts';

export interface RequestAnswer {
  operation: OperationId;
  method: string;
  /** Below the base URL, query included. */
  path: string;
  requestContentType: string | undefined;
  /** undefined: not captured. A JsonBody when the caller reads its tree too (placing the request): parsed once for both. */
  requestBody: string | JsonBody | undefined;
  credential: RequestCredential;
  /** Where the request stands against the contract (lib/contract.ts placeRequest, classifyRequest). */
  kind: RequestKind;
  status: number;
  responseHeaders: Readonly<Record<string, string | undefined>>;
  /** undefined: not captured. */
  responseBody: JsonBody | undefined;
}

/**
 * What the request's Authorization header puts to the test: 'none' (no header), 'configured' (a configured key
 * as `Bearer <key>`; 'configured-other-case' in a scheme spelt otherwise, "bearer <key>"), 'other' (a bearer
 * key of no known plan: whether the service knows it, traffic does not show), 'other-form' (a key in another
 * scheme or without one: a request without a valid key), 'empty-bearer', and 'unknown' (the capture does not
 * say, or the header has another shape).
 */
export type RequestCredential = 'none' | 'configured' | 'configured-other-case' | 'other' | 'other-form' | 'empty-bearer' | 'unknown';

export function requestCredential(exchange: Pick<JudgedExchange, 'key' | 'credential'>): RequestCredential {
  switch (exchange.credential) {
    case 'none':
    case 'other-form':
    case 'empty-bearer':
      return exchange.credential;
    case 'bearer':
    case 'bearer-other-case':
      if (typeof exchange.key !== 'object') return 'unknown';
      if (!exchange.key.plan) return 'other';
      return exchange.credential === 'bearer' ? 'configured' : 'configured-other-case';
    default:
      return 'unknown';
  }
}

export interface RuleFindings {
  /** The rules this exchange put to the test. */
  judged: string[];
  violations: Violation[];
}

const PET_STATUSES = ['available', 'pending', 'sold'];
const DEFAULT_PAGE = 20;
const LARGEST_PAGE = 100;
const SUNSET_DAY = operationById('getPet').sunset ?? '2030-12-05';
/** getPet's removal date: until then it keeps working (DEP-1). */
export const SUNSET_MS = Date.parse(`${SUNSET_DAY}T00:00:00Z`);
const DEPRECATION = /^@(-?\d+)$/;
/** A page size a client may ask for: 1 to the largest page, written plainly. */
const ASKED_PAGE: ContractSchema = { type: 'integer', minimum: 1, maximum: LARGEST_PAGE };
/** Whether a limit's text is an asked page, by the text: a capture asks a few sizes again and again. */
const askedPages = new BoundedMemo<string, boolean>(1_024);

function isAskedPage(text: string): boolean {
  let asked = askedPages.get(text);
  if (asked === undefined) {
    asked = isCanonical(ASKED_PAGE, text);
    askedPages.set(text, asked);
  }
  return asked;
}
/** Statuses any operation may answer whatever the request: the limiter's refusal. */
const REFUSED = 429;

/** `findings`: where the findings go, after what they hold already (new ones unless given). */
export function judgeRequestAnswer(exchange: RequestAnswer, findings: RuleFindings = { judged: [], violations: [] }): RuleFindings {
  judgeAuthentication(exchange, findings);
  // Any answer, a refusal too: a 401 or a 429 of listPets that says "deprecated" says it of listPets.
  const deprecation = misplacedDeprecation(exchange.operation, exchange.status, exchange.responseHeaders);
  if (deprecation.judged) findings.judged.push(RULE['only-getpet-deprecated']);
  if (deprecation.breach) findings.violations.push({ rule: RULE['only-getpet-deprecated'], message: `${exchange.method} ${exchange.path}: ${deprecation.breach}` });
  if (exchange.status === 401 || exchange.status === REFUSED) return findings;
  if (exchange.operation === 'listPets') judgeList(exchange, findings);
  else if (exchange.operation === 'createPet') judgeCreation(exchange, findings);
  else if (exchange.operation === 'getPet') judgeDeprecationHeaders(exchange, findings);
  else if (exchange.operation === 'listOrders') judgeOrdersExist(exchange, findings);
  return findings;
}

/**
 * GET /store/orders with a configured key: 404 or 405 says the operation is not there (ORD-1). Only a configured key
 * is known to be valid; a 404 to any other key may be the service hiding what it will not show that caller.
 */
function judgeOrdersExist(exchange: RequestAnswer, findings: RuleFindings): void {
  if (exchange.credential !== 'configured' && exchange.credential !== 'configured-other-case') return;
  findings.judged.push(RULE['orders-exist']);
  if (exchange.status === 404 || exchange.status === 405) findings.violations.push({ rule: RULE['orders-exist'], message: `${exchange.method} ${exchange.path} with a configured key was answered ${exchange.status}: GET /store/orders exists, and answers a status documented for every operation` });
}

function judgeAuthentication(exchange: RequestAnswer, findings: RuleFindings): void {
  if (exchange.credential === 'none') {
    findings.judged.push(RULE['no-key-refused']);
    if (exchange.status !== 401) findings.violations.push({ rule: RULE['no-key-refused'], message: `${exchange.method} ${exchange.path} without an Authorization header was answered ${exchange.status}, not 401` });
  } else if (exchange.credential === 'configured') {
    findings.judged.push(RULE['bearer-key-accepted']);
    if (exchange.status === 401) findings.violations.push({ rule: RULE['bearer-key-accepted'], message: `${exchange.method} ${exchange.path} with a configured key as "Bearer <key>" was answered 401` });
  } else if (exchange.credential === 'configured-other-case') {
    findings.judged.push(RULE['scheme-case-insensitive']);
    if (exchange.status === 401) findings.violations.push({ rule: RULE['scheme-case-insensitive'], message: `${exchange.method} ${exchange.path} with a configured key in a scheme not spelt "Bearer" was answered 401` });
  } else if (exchange.credential === 'other-form' || exchange.credential === 'empty-bearer') {
    // No valid key: a 401 is right. A 429 accepts nothing (a limiter may count by address before it reads keys).
    const rule = exchange.credential === 'other-form' ? RULE['other-scheme-refused'] : RULE['empty-token-refused'];
    findings.judged.push(rule);
    if (exchange.status !== 401 && exchange.status !== REFUSED) {
      const what = exchange.credential === 'other-form' ? 'a credential in another scheme than Bearer, or without one' : 'an empty bearer token';
      findings.violations.push({ rule, message: `${exchange.method} ${exchange.path} with ${what} was answered ${exchange.status}, not 401` });
    }
  }
}

function judgeList(exchange: RequestAnswer, findings: RuleFindings): void {
  if (exchange.status !== 200 || exchange.responseBody === undefined) return;
  const value = exchange.responseBody.value;
  if (value === undefined) return;
  findings.judged.push(RULE['list-plain-array']);
  if (!Array.isArray(value)) {
    findings.violations.push({ rule: RULE['list-plain-array'], message: `GET ${exchange.path} answered 200 with a JSON ${value === null ? 'null' : typeof value} instead of a plain array of Pet` });
    return;
  }
  const size = value.length;
  findings.judged.push(RULE['list-largest-page']);
  if (size > LARGEST_PAGE) findings.violations.push({ rule: RULE['list-largest-page'], message: `GET ${exchange.path} returned ${size} animals; a list never holds more than ${LARGEST_PAGE}` });
  const { redacted, limits, statuses } = listQuery(exchange.path);
  if (redacted) return;
  if (limits.length === 0) {
    findings.judged.push(RULE['list-default-page']);
    if (size > DEFAULT_PAGE) findings.violations.push({ rule: RULE['list-default-page'], message: `GET ${exchange.path} without limit returned ${size} animals; at most ${DEFAULT_PAGE} are due` });
  } else if (limits.length === 1 && isAskedPage(limits[0] as string)) {
    const limit = Number(limits[0]);
    findings.judged.push(RULE['list-asked-page']);
    if (size > limit) findings.violations.push({ rule: RULE['list-asked-page'], message: `GET ${exchange.path} returned ${size} animals; at most ${limit} were asked for` });
  }
  if (statuses.length === 1 && PET_STATUSES.includes(statuses[0] as string)) {
    const wanted = statuses[0] as string;
    findings.judged.push(RULE['list-status-filter']);
    const others = value.filter((pet) => !isObject(pet) || pet.status !== wanted);
    if (others.length > 0) {
      const shown = others.slice(0, 3).map((pet) => (isObject(pet) ? `id ${String(pet.id)} is ${pet.status === undefined ? 'without status' : JSON.stringify(pet.status)}` : 'an item that is not a Pet'));
      findings.violations.push({ rule: RULE['list-status-filter'], message: `GET ${exchange.path} returned ${others.length} of ${size} animals of another status (${shown.join(', ')}${others.length > 3 ? ', …' : ''})` });
    }
  }
}

function judgeCreation(exchange: RequestAnswer, findings: RuleFindings): void {
  const sent = exchange.requestBody;
  if (sent === undefined) return;
  if (exchange.kind === 'outside') return;
  const json = (typeof sent === 'string' ? new JsonBody(sent) : sent).json;
  if (json.kind !== 'json') return judgeRefusal(exchange, findings, RULE['body-required'], json.kind === 'empty' ? 'an empty body' : 'a body that is not JSON');
  const problems = schemaProblems('NewPet', json.value);
  if (problems.length > 0) {
    const missing = problems.find((problem) => /^(name|categoryId) is required$/.test(problem));
    return judgeRefusal(exchange, findings, missing ? RULE['missing-field-refused'] : RULE['invalid-value-refused'], `a body the NewPet schema refuses (${missing ?? problems[0]})`);
  }
  findings.judged.push(RULE['created-as-sent']);
  if (exchange.status === 400 && exchange.kind === 'gap') return;
  if (exchange.status !== 201) {
    findings.violations.push({ rule: RULE['created-as-sent'], message: `POST ${exchange.path} with a valid NewPet was answered ${exchange.status}, not 201` });
    return;
  }
  const created = exchange.responseBody?.value;
  if (exchange.responseBody === undefined || !isObject(created) || !isObject(json.value)) return;
  const mismatches: string[] = [];
  if (created.id === undefined) mismatches.push('no id');
  for (const field of ['name', 'categoryId', 'status']) {
    const asSent = json.value[field];
    if (asSent === undefined) continue;
    if (!sameValue(asSent, created[field])) mismatches.push(`${field} ${shown(created[field])} where ${shown(asSent)} was sent`);
  }
  if (mismatches.length > 0) findings.violations.push({ rule: RULE['created-as-sent'], message: `POST ${exchange.path} created a pet with ${mismatches.join(', ')}` });
}

/** A creation the spec refuses (`what`: the body it sent): anything but 400 breaks `rule`. */
function judgeRefusal(exchange: RequestAnswer, findings: RuleFindings, rule: string, what: string): void {
  findings.judged.push(rule);
  if (exchange.status !== 400) findings.violations.push({ rule, message: `POST ${exchange.path} with ${what} was answered ${exchange.status}, not 400 with an Error` });
}

function judgeDeprecationHeaders(exchange: RequestAnswer, findings: RuleFindings): void {
  const sunset = exchange.responseHeaders.sunset;
  let sunsetMs = SUNSET_MS;
  if (sunset !== undefined) {
    findings.judged.push(RULE['sunset-date']);
    const reading = readSunset(sunset);
    if (reading.problem !== undefined) findings.violations.push({ rule: RULE['sunset-date'], message: reading.problem });
    else sunsetMs = reading.sunsetMs;
  }
  const deprecation = exchange.responseHeaders.deprecation;
  if (deprecation !== undefined) {
    findings.judged.push(RULE['deprecation-date']);
    const deprecatedMs = deprecationMs(deprecation);
    if (deprecatedMs === null) findings.violations.push({ rule: RULE['deprecation-date'], message: `Deprecation "${deprecation}" is not an RFC 9745 date (@ followed by Unix seconds)` });
    else if (deprecatedMs > sunsetMs) findings.violations.push({ rule: RULE['deprecation-date'], message: `Deprecation "${deprecation}" is after the sunset, ${SUNSET_DAY}` });
  }
}

/**
 * Header values read once per distinct text: a capture's getPet answers carry the same Sunset and Deprecation again
 * and again, and reading a date (three regular expressions, a Date made and written out) was a tenth of judging one.
 */
const REMEMBERED_HEADER_VALUES = 1_024;
/** The sunset a Sunset header names, or what is wrong with it (the sunset is then getPet's own). */
interface SunsetReading {
  sunsetMs: number;
  problem: string | undefined;
}
const sunsetReadings = new BoundedMemo<string, SunsetReading>(REMEMBERED_HEADER_VALUES);
const deprecationDates = new BoundedMemo<string, number | null>(REMEMBERED_HEADER_VALUES);

/** The sunset a Sunset header names, when it is an HTTP-date on getPet's removal day; otherwise what is wrong with it. */
function readSunset(sunset: string): SunsetReading {
  const known = sunsetReadings.get(sunset);
  if (known) return known;
  const at = parseHttpDate(sunset);
  const reading: SunsetReading =
    at === undefined ? { sunsetMs: SUNSET_MS, problem: `Sunset "${sunset}" on getPet is not an HTTP-date (RFC 8594)` }
    : new Date(at).toISOString().slice(0, 10) !== SUNSET_DAY ? { sunsetMs: SUNSET_MS, problem: `Sunset "${sunset}" on getPet is not on ${SUNSET_DAY}` }
    : { sunsetMs: at, problem: undefined };
  sunsetReadings.set(sunset, reading);
  return reading;
}

/** The time (ms) a Deprecation header names as RFC 9745 writes it (@ and Unix seconds); null when it is no such date. */
function deprecationMs(deprecation: string): number | null {
  const known = deprecationDates.get(deprecation);
  if (known !== undefined) return known;
  const match = DEPRECATION.exec(deprecation.trim());
  const at = match ? Number(match[1]) * 1000 : null;
  deprecationDates.set(deprecation, at);
  return at;
}

function isObject(value: LosslessValue | undefined): value is { [key: string]: LosslessValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Numbers compare by their digits, so 7 and 7n (a BigInt from a large id's neighbourhood) are the same. */
function sameValue(a: LosslessValue, b: LosslessValue | undefined): boolean {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return String(a) === String(b);
  return a === b;
}

function shown(value: LosslessValue | undefined): string {
  if (value === undefined) return 'missing';
  return typeof value === 'bigint' ? String(value) : JSON.stringify(value);
}
