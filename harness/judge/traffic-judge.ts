/**
 * Judges exchanges one at a time, in one pass, as they come from a capture, the recording proxy or a
 * replay: every exchange against the contract and the rules one exchange can show (response-checks.ts,
 * request-rules.ts), and each key's answers against the rate-limit rules its windows can show
 * (key-windows.ts). What it keeps is a tally per rule and the open windows per key, never the exchanges.
 */
import { quotaRule, RULE } from '../../lib/checks/registry.ts';
import { outcomeOf } from '../../lib/rate-limiter/admitted.ts';
import { firmSlackMs } from '../../lib/rate-limiter/window-accountant.ts';
import { PlacedRequests, type OperationId, type PlacedRequest } from '../../lib/contract.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { agreedEnterpriseQuota, plans, type PlanId, type Quota } from '../../lib/plans.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { checkResponse } from '../../lib/response-checks.ts';
import { ClientRuleJudge } from './client-rule-judge.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import type { Contradiction } from './contradiction.ts';
import { describeLimiter, KeyWindows, type ClosedWindow } from './key-windows.ts';
import { CreatedPets } from './created-pets.ts';
import { keyedAnswer } from './keyed-answer.ts';
import { RememberedBodies } from './remembered-bodies.ts';
import { StandardFieldsSeen } from './standard-fields-seen.ts';
import { judgeRequestAnswer, requestCredential } from '../../lib/request-rules.ts';
import { RuleTallies, type ExchangeFindings } from './rule-tally.ts';
import { UnansweredRequests } from './unanswered.ts';

export interface JudgeOptions {
  env: NodeJS.ProcessEnv;
  /**
   * How far the capture's clock may be from the target's, and the clocks of a merged capture from each other, in
   * ms (at least a second is assumed for the first). Answers within this (plus Reset's whole second) of the Reset
   * they name are not counted in their window: it may have ended by then; two answers this close may have been
   * decided in either order (key-windows.ts); a Reset this far in the past is still plausible.
   */
  clockSkewMs: number;
}

/**
 * How far back in time a capture may go and still be judged as if it were in order (plus the clock skew): a slow
 * request logged when it ended, logs merged from gateways whose clocks differ. Further back is refused with the entry
 * named (window-accountant.ts).
 */
export const REORDER_MS = 10_000;
/**
 * What getPet's answers carry of the deprecation signals, by which of them an answer carries (1: Deprecation, 2: Sunset,
 * 4: Link): written once, not per answer.
 */
const SIGNALS_CARRIED: readonly string[] = Array.from({ length: 8 }, (_, carried) => {
  const signals = ['deprecation', 'sunset', 'link'].filter((_, at) => (carried & (1 << at)) !== 0);
  return signals.length > 0 ? `getPet's answers carry ${signals.join(', ')}` : "getPet's answers carry no deprecation header";
});
/** The rules that need to know the key a request carried. */
const KEY_RULES = [RULE['no-key-refused'], RULE['bearer-key-accepted']];

export interface JudgeProgress {
  exchanges: number;
  keys: number;
  openWindows: number;
  failing: string[];
}

export class TrafficJudge {
  readonly tallies = new RuleTallies();
  private readonly standardFields = new StandardFieldsSeen(this.tallies);
  private readonly keys = new Map<string, { plan: PlanId | undefined; windows: KeyWindows }>();
  private readonly clients: ClientRuleJudge;
  private readonly unanswered = new UnansweredRequests(this.tallies, evidenceOf);
  private readonly createdPets: CreatedPets;
  private readonly placed = new PlacedRequests();
  private readonly bodies = new RememberedBodies();
  private readonly slackMs: number;
  private readonly enterpriseQuota: Quota | undefined;
  private readonly clockSkewMs: number;
  /**
   * One exchange's findings, emptied for each: they are tallied before the next exchange is judged and never kept, so
   * one object and its four lists serve every exchange rather than five made for each.
   */
  private readonly findings: ExchangeFindings = { judged: [], violations: [], unchecked: [], observed: [] };
  private latestAnswer = 0;
  private exchanges = 0;
  private firstAnswer: number | undefined;

  constructor(options: JudgeOptions) {
    this.slackMs = firmSlackMs(options.clockSkewMs);
    this.clockSkewMs = options.clockSkewMs;
    this.enterpriseQuota = agreedEnterpriseQuota(options.env);
    this.clients = new ClientRuleJudge(this.tallies, options.clockSkewMs);
    this.createdPets = new CreatedPets(options.clockSkewMs);
  }

  get progress(): JudgeProgress {
    let openWindows = 0;
    for (const key of this.keys.values()) openWindows += key.windows.openWindows;
    return { exchanges: this.exchanges, keys: this.keys.size, openWindows, failing: this.tallies.failing() };
  }

  /** The span of the capture's clock, ms since the epoch. */
  get span(): { first: number | undefined; last: number } {
    return { first: this.firstAnswer, last: this.latestAnswer };
  }

  get agreedEnterprise(): Quota | undefined {
    return this.enterpriseQuota;
  }

  add(exchange: JudgedExchange): void {
    // Parsed (once) where placing the request reads it, and again where judging a creation does.
    const requestBody = exchange.requestBody === undefined ? undefined : new JsonBody(exchange.requestBody);
    const placed = this.placed.place(exchange.method, exchange.path, exchange.requestContentType, requestBody);
    if (!placed) return;
    const operation = placed.operation.id;
    this.exchanges++;
    this.firstAnswer ??= exchange.answeredAt;
    const keyName = typeof exchange.key === 'object' ? exchange.key.pseudonym : undefined;
    const plan = typeof exchange.key === 'object' ? exchange.key.plan : undefined;
    // A request without an answer shows nothing of any rule but RESP-3, judged when the capture ends.
    if (exchange.noAnswer) return this.unanswered.add(operation, exchange, exchange.noAnswer, keyName);
    this.unanswered.answered(operation, keyName);
    this.tallies.record(this.findingsOf(exchange, placed, plan, requestBody), keyName, exchange, evidenceOf);
    if (exchange.status !== 401) this.standardFields.add(exchange.number, exchange.responseHeaders, exchange.answeredAt, keyName);
    this.account(exchange, keyName, plan);
    if (keyName !== undefined) {
      const { number, method, path, sentAt, answeredAt, status, responseHeaders } = exchange;
      this.clients.add({ number, key: keyName, method, path, sentAt, answeredAt, status, retryAfter: responseHeaders['retry-after'], date: responseHeaders.date });
    }
  }

  /**
   * What one answered exchange shows: the checks its answer puts to the test (and those it cannot), the contract's
   * checks of every response, and what the answer must be given what was asked.
   */
  private findingsOf(exchange: JudgedExchange, placed: PlacedRequest, plan: PlanId | undefined, requestBody: JsonBody | undefined): ExchangeFindings {
    const findings = this.findings;
    empty(findings.judged);
    empty(findings.violations);
    empty(findings.unchecked);
    empty(findings.observed);
    const { operation, classification: { kind } } = placed;
    this.answerChecks(exchange, operation.id, plan, findings);
    const body = exchange.responseBody === undefined ? undefined : this.bodyOf(exchange, exchange.responseBody);
    checkResponse({
      operation,
      status: exchange.status,
      headers: exchange.responseHeaders,
      body,
      plan: plan && exchange.status !== 401 ? plan : undefined,
      quota: plan === 'enterprise' ? this.enterpriseQuota : undefined,
      now: exchange.answeredAt,
      sentAt: exchange.sentAt,
      clockSkewMs: this.clockSkewMs,
      outsideContract: kind === 'outside',
      conditional: exchange.conditional !== undefined,
    }, findings.violations);
    if (exchange.conditional === 'not-logged') findings.unchecked.push({ rule: RULE['documented-status'], reason: 'answers 304 of a log that writes neither If-None-Match nor If-Modified-Since: whether the request was conditional, which a 304 answers, is not known' });
    const judgedBefore = findings.judged.length;
    judgeRequestAnswer({
      operation: operation.id,
      method: exchange.method,
      path: exchange.path,
      requestContentType: exchange.requestContentType,
      requestBody,
      credential: requestCredential(exchange),
      kind,
      status: exchange.status,
      responseHeaders: exchange.responseHeaders,
      responseBody: body,
    }, findings);
    // The request rules' own judgements start at judgedBefore (those of VER-3 and CREATE-1 are theirs alone).
    if (exchange.signalsNotLogged && findings.judged.indexOf(RULE['only-getpet-deprecated'], judgedBefore) !== -1) {
      findings.unchecked.push({ rule: RULE['only-getpet-deprecated'], reason: `answers of a log that does not write ${exchange.signalsNotLogged.join(', ')} (not even empty): a deprecation signal there is not seen` });
    }
    this.createdPets.add(exchange, operation.id, body, findings);
    if (body === undefined && exchange.status === 201 && findings.judged.indexOf(RULE['created-as-sent'], judgedBefore) !== -1) findings.unchecked.push({ rule: RULE['created-as-sent'], reason: 'creations whose answer the capture holds without its body: only their status was judged, not the pet created' });
    return findings;
  }

  /**
   * The answer's body with its tree. An answer to a request without a body is remembered (the same page, the same pet,
   * answered again and again); one to a request with a body is what that body made (a creation's new pet), new each time.
   */
  private bodyOf(exchange: JudgedExchange, text: string): JsonBody {
    return exchange.requestBody === undefined ? this.bodies.of(exchange.method, exchange.path, text) : new JsonBody(text);
  }

  /**
   * The checks of every response that this answer puts to the test, those it cannot (a key the capture does not show,
   * a Limit of no known quota), and where the spec leaves open how a marker reaches a client, what the answer carried.
   */
  private answerChecks(exchange: JudgedExchange, operation: OperationId, plan: PlanId | undefined, findings: ExchangeFindings): void {
    const { status, responseHeaders: headers } = exchange;
    const { judged } = findings;
    judged.push(RULE['documented-status'], RULE['rate-limit-headers-present']);
    const withBody = exchange.responseBody !== undefined;
    if (withBody) judged.push(RULE['json-body'], RULE['body-shape']);
    if (withBody && status >= 400 && status < 500 && status !== 429) judged.push(RULE['error-body'], RULE['error-status']);
    if (headers['x-ratelimit-remaining'] !== undefined) judged.push(RULE['remaining-value']);
    if (headers['x-ratelimit-reset'] !== undefined) judged.push(RULE['reset-value']);
    if (status === 429) judged.push(RULE['retry-after-present']);
    if (status === 429 && headers['retry-after'] !== undefined) judged.push(RULE['retry-after-format']);
    if (plan && status !== 401 && headers['x-ratelimit-limit'] !== undefined && (plans[plan].documented || this.enterpriseQuota)) judged.push(RULE['limit-value']);
    else if (status !== 401 && headers['x-ratelimit-limit'] !== undefined) findings.unchecked.push({ rule: RULE['limit-value'], reason: 'answers to keys of no known plan or quota (name them with PETSTORE_API_KEY_<PLAN>, an Enterprise quota with PETSTORE_ENTERPRISE_PER_MINUTE and _PER_DAY)' });
    if (exchange.credential === 'not-captured') {
      for (const rule of KEY_RULES) findings.unchecked.push({ rule, reason: "requests whose Authorization header the capture does not hold (a browser's sanitized HAR, a log without the field): whether they carried a key, and which, is not known" });
    }
    if (status === 401 || status === 429) return;
    if (operation === 'listOrders') {
      const marked = Object.entries(headers).filter(([name, value]) => !name.startsWith('x-ratelimit-') && /experimental|beta/i.test(value ?? ''));
      findings.judged.push(RULE['stability-marker']);
      findings.observed.push({ rule: RULE['stability-marker'], what: marked.length > 0 ? `GET /store/orders carries ${marked.map(([name, value]) => `${name}: ${(value ?? '').slice(0, 40)}`).join('; ')}` : 'no header of GET /store/orders names a stability' });
    } else if (operation === 'getPet') {
      const carried = (headers.deprecation !== undefined ? 1 : 0) | (headers.sunset !== undefined ? 2 : 0) | (headers.link !== undefined ? 4 : 0);
      findings.judged.push(RULE['deprecation-signals']);
      findings.observed.push({ rule: RULE['deprecation-signals'], what: SIGNALS_CARRIED[carried] as string });
    }
  }

  /** Closes every window still open (the capture ended) and hands back the tallies. */
  finish(): RuleTallies {
    for (const [name, key] of this.keys) {
      const seen = key.windows.finish();
      for (const limiter of seen) {
        this.tallies.judged(RULE['limiter-kind'], name);
        this.tallies.observed(RULE['limiter-kind'], `key ${name}, ${describeLimiter(limiter)}`);
        if (limiter.unjudged) this.tallies.unchecked(RULE['remaining-steps'], limiter.unjudged);
      }
    }
    this.standardFields.finish();
    this.createdPets.finish(this.tallies);
    this.clients.finish();
    this.unanswered.finish();
    return this.tallies;
  }

  private account(exchange: JudgedExchange, keyName: string | undefined, plan: PlanId | undefined): void {
    this.latestAnswer = Math.max(this.latestAnswer, exchange.answeredAt);
    if (keyName === undefined) return;
    const outcome = outcomeOf(exchange.status);
    const headers = readRateLimit(exchange.responseHeaders);
    if (outcome === 'error' || !headers) return;
    let key = this.keys.get(keyName);
    if (!key) {
      // The rule its windows admitting past their limit break: the plan's quota, or, for a quota no one stated, the Limit the target itself sent.
      const quota = quotaRule(plan, plan && plans[plan].documented ? 'documented' : this.enterpriseQuota ? 'agreed' : 'unstated');
      const windows = new KeyWindows(plan, { slackMs: this.slackMs, clockSkewMs: this.clockSkewMs, reorderMs: REORDER_MS + this.clockSkewMs }, {
        found: (contradiction) => this.contradiction(contradiction, keyName, quota),
        unchecked: (check, reason) => this.tallies.unchecked(RULE[check], reason),
        closed: (window) => this.windowClosed(window, keyName, quota),
      });
      key = { plan, windows };
      this.keys.set(keyName, key);
    }
    const retryAfter = outcome === 'refused' ? retryAfterMs(exchange.responseHeaders['retry-after'], exchange.answeredAt) : undefined;
    // The reading's status is the answer's: a refusal's is 429 (outcomeOf).
    key.windows.add(keyedAnswer(exchange.number, outcome, exchange.status, headers, exchange.sentAt, exchange.answeredAt, retryAfter));
  }

  /** `quota`: the rule the key's windows admitting past their limit break (quotaRule). */
  private contradiction(contradiction: Contradiction, keyName: string, quota: string): void {
    const rule = contradiction.check === 'minute-max' ? quota : RULE[contradiction.check];
    const exchanges = contradiction.exchanges.length > 0 ? `; exchanges ${contradiction.exchanges.join(', ')}` : '';
    this.tallies.violated(rule, `${contradiction.message} (key ${keyName}${exchanges})`, undefined);
  }

  private windowClosed(window: ClosedWindow, keyName: string, quota: string): void {
    if (window.firmAdmissions === 0) return;
    const rules = [RULE['remaining-countdown'], RULE['reset-stable'], quota];
    for (const rule of rules) {
      this.tallies.judged(rule, keyName, 1);
      if (!window.whole) this.tallies.unchecked(rule, 'windows only partly in the capture (Remaining values skipped: requests it does not hold took from them), judged only on what holds whatever was not seen');
    }
  }
}

/**
 * Empties a list by popping what it holds: setting its length to 0 is a call into the runtime that also lets its store
 * go, grown again by the next exchange's pushes (four lists an exchange: 40 ms of 200,000 exchanges, where popping takes 8).
 */
function empty(list: unknown[]): void {
  while (list.length !== 0) list.pop();
}

/** The exchange as the report shows it: the key as its pseudonym, never the key. */
function evidenceOf(exchange: JudgedExchange): { request: unknown; response: unknown } {
  return {
    request: {
      method: exchange.method,
      url: exchange.path,
      headers: { ...(exchange.authorizationShown !== undefined ? { authorization: exchange.authorizationShown } : {}), ...(exchange.requestContentType ? { 'content-type': exchange.requestContentType } : {}) },
      ...(exchange.requestBody !== undefined ? { body: exchange.requestBody } : {}),
      exchange: exchange.number,
      at: new Date(exchange.answeredAt).toISOString(),
    },
    response: { status: exchange.status, headers: exchange.responseHeaders, ...(exchange.responseBody !== undefined ? { body: exchange.responseBody } : {}) },
  };
}
