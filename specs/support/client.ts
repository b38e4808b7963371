/**
 * The validating, polite client every spec talks to the target through. Every response it receives is
 * checked against the contract (lib/response-checks.ts, the same checks the replay harness runs) and every
 * finding is judged by its rule; bodies are parsed losslessly, so an id above 2^53 survives. Outside the
 * tests that measure a limit, a 429 is waited out per Retry-After with exponential backoff and jitter
 * (lib/backoff.ts), never retried at once, and noted as throttling; requests on a key sent together and refused
 * wait for the latest 429 among them and go again one retry at a time, across the run's workers (turnToSend). A
 * request sent that got no response (none within the bounded wait, or its connection closed without one) fails
 * RESP-3 and is sent once more, so the test judges its own rules on the answer. Any other request without an
 * answer to judge by (a 429 that cannot be waited out in the test's time, once the key's rest has it; a refused
 * connection) fails no rule: the test ends "could not complete" with the cause, or a collecting client throws
 * NoAnswer for its caller to say so.
 */
import { backoffDelayMs, DEFAULT_BACKOFF, sleep, type BackoffPolicy } from '../../lib/backoff.ts';
import { classifyRequest, operation as operationById, type OperationId } from '../../lib/contract.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import { plans, type PlanId, type Quota } from '../../lib/plans.ts';
import { WALL_CLOCK, type TargetClock } from '../../lib/target-clock.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { checkResponse } from '../../lib/response-checks.ts';
import type { Exchange, Method, ReceivedResponse, SentRequest, Transport } from './exchange.ts';
import type { RuleJudge } from './judge.ts';
import type { KeyRest } from './key-rest.ts';
import { NoAnswer } from './no-answer.ts';
import { NO_RESPONSE_STATUS, Unanswered, UNANSWERED_RULE } from './unanswered.ts';
import { quotaInRun } from './plan-quotas.ts';

/** wait: a 429 is waited out and the request sent again. measure: a 429 is handed to the caller. */
export type Politeness = 'wait' | 'measure';

export interface ClientOptions {
  transport: Transport;
  baseUrl: string;
  /** The Authorization header value, or undefined to send none. */
  authorization: string | undefined;
  /** The plan of the key in `authorization`, when it is a key the target was configured with. */
  plan: PlanId | undefined;
  judge: RuleJudge;
  politeness: Politeness;
  /** Real milliseconds this test may still spend waiting; a longer Retry-After ends the test with a clear message. */
  timeLeftMs: () => number;
  /** The target's clock: exchanges are stamped with its time, and the waits it asks for last its time. Default: the wall clock. */
  clock?: TargetClock;
  /** The Enterprise quota agreed for this run, which an Enterprise key's X-RateLimit-Limit is held to. */
  enterpriseQuota?: Quota;
  /**
   * The contract's findings go on the exchange (`violations`) instead of to the judge, and a request without an
   * answer throws NoAnswer: for generated requests, whose failures are judged once, on the smallest request
   * that still shows them, and whose property notes what it could not send.
   */
  deferJudgement?: boolean;
  /** What the run remembers of the key's refusals (key-rest.ts): waited for before every request, kept up by every 429. */
  rest?: KeyRest;
  /** The operations that have answered a request: this worker's by default (a request to one that gets none was dropped). */
  answeredOperations?: Set<OperationId>;
  backoff?: BackoffPolicy;
  random?: () => number;
  wait?: (ms: number) => Promise<void>;
}

export interface RawBody {
  /** Sent as is; undefined sends no body at all. */
  body?: string;
  contentType?: string;
}

/** A parameter's value; several values send the parameter once for each, in order (?status=sold&status=pending). */
export type Query = Record<string, string | number | readonly string[]>;

export class PetStoreClient {
  constructor(private readonly options: ClientOptions) {}

  get plan(): PlanId | undefined {
    return this.options.plan;
  }

  get authorization(): string | undefined {
    return this.options.authorization;
  }

  private get answeredOperations(): Set<OperationId> {
    return this.options.answeredOperations ?? answeredInWorker;
  }

  get clock(): TargetClock {
    return this.options.clock ?? WALL_CLOCK;
  }

  /** The real time the test has left for waits on the target, in milliseconds. */
  timeLeftMs(): number {
    return this.options.timeLeftMs();
  }

  /** The same client, its findings left on each exchange, and its requests without an answer, for the caller to judge. */
  collecting(): PetStoreClient {
    return new PetStoreClient({ ...this.options, deferJudgement: true });
  }

  /** The same client sending another Authorization header (undefined: none). */
  withAuthorization(authorization: string | undefined, plan?: PlanId): PetStoreClient {
    const { rest: _keysRest, ...options } = this.options;
    return new PetStoreClient({ ...options, authorization, plan });
  }

  listPets(query: Query = {}): Promise<Exchange> {
    return this.call('listPets', 'GET', `/pets${queryString(query)}`);
  }

  createPet(pet: LosslessValue): Promise<Exchange> {
    return this.createPetRaw({ body: stringifyLossless(pet), contentType: 'application/json' });
  }

  createPetRaw({ body, contentType }: RawBody): Promise<Exchange> {
    return this.call('createPet', 'POST', '/pets', body, contentType);
  }

  getPet(id: LosslessValue | string): Promise<Exchange> {
    const text = typeof id === 'string' ? id : idText(id);
    if (text === undefined) throw new Error(`getPet needs an integer id, got ${String(id)}`);
    return this.call('getPet', 'GET', `/pets/${encodeURIComponent(text)}`);
  }

  listOrders(): Promise<Exchange> {
    return this.call('listOrders', 'GET', '/store/orders');
  }

  /** Any documented operation, by id: what the auth and header tests use to cover every operation alike. */
  operation(id: OperationId, petId: string = '1'): Promise<Exchange> {
    switch (id) {
      case 'listPets':
        return this.listPets();
      case 'createPet':
        return this.createPet({ name: 'conformance auth probe', categoryId: 1 });
      case 'getPet':
        return this.getPet(petId);
      case 'listOrders':
        return this.listOrders();
    }
  }

  async call(operation: OperationId, method: Method, path: string, body?: string, contentType?: string): Promise<Exchange> {
    const { politeness, backoff = DEFAULT_BACKOFF, rest } = this.options;
    for (let attempt = 1; ; attempt++) {
      const turn = await this.turnToSend(method, path, attempt);
      let exchange: Exchange;
      let delay: number | undefined;
      try {
        exchange = await this.sendOnce(operation, method, path, body, contentType);
        if (exchange.response.status !== 429) rest?.answered();
        // The key rests as long whatever this test does next, so the next request on it, this test's or
        // another's, waits too (turnToSend).
        else if (politeness === 'wait') delay = rest ? rest.refused((inARow) => this.delayAfter(exchange, inARow), turn.inARow) : this.delayAfter(exchange, attempt);
      } finally {
        // The requests held for this one, if it was the key's retry, look at the key again: its 429 is in the rest by now.
        turn.answered();
      }
      if (delay === undefined) return exchange;
      if (attempt >= backoff.maxAttempts) {
        // Evidence against RL-3 only where the key is the test's alone: RL-3's own test judges that.
        this.unanswered(`${method} ${path} was still refused with 429 after ${attempt} attempts spaced per Retry-After; the key may be shared with another client or its quota used up`);
      }
      await this.waitOut(exchange, attempt, delay);
    }
  }

  /**
   * Waits for this request's turn on its key. While the key's last 429, in this test or another, asks it to wait,
   * it waits, and looks again after every wait: a 429 that came meanwhile, to a request sent together with this one,
   * asks for longer. Once the wait is over, the first request on a key still refused, in any worker, claims the key's
   * retry and goes alone (key-rest.ts); the others look at the rest and the retry again in short polls until it is
   * answered. A retry's own wait was noted when its 429 came (waitOut). Without the key's rest (a client of another
   * key), a retry waits its own 429.
   */
  private async turnToSend(method: Method, path: string, attempt: number): Promise<Turn> {
    const { rest, wait = sleep, judge, timeLeftMs } = this.options;
    if (!rest) return NOT_A_RETRY;
    const where = `${method} ${path.split('?')[0]}`;
    let noted = attempt > 1;
    // The end of the rest this request last waited for (real ms): a timer may end a millisecond before the wall clock does.
    let waitedUntil = 0;
    const restLeftMs = (untilMs: number): number => untilMs - Math.max(Date.now(), waitedUntil);
    for (;;) {
      const untilMs = rest.untilMs();
      const restMs = restLeftMs(untilMs);
      if (restMs > 0) {
        if (restMs > timeLeftMs()) this.unanswered(`${where} was not sent: its key's last 429 asked it to wait ${Math.ceil(restMs / 1000)} s more, longer than this test may take`);
        if (!noted) judge.throttled(`${where} waited ${restMs} ms before it was sent, for its key's last 429`);
        noted = true;
        await wait(restMs);
        waitedUntil = untilMs;
        continue;
      }
      if (rest.refusalsInARow() === 0) return NOT_A_RETRY;
      // The retry is bound by the test: past its time the request is given up, and its slot with it.
      const release = rest.claimRetry(Date.now() + timeLeftMs());
      if (release) {
        // Another worker's retry may have been refused between the look and the claim: its rest holds then.
        if (restLeftMs(rest.untilMs()) <= 0) return { inARow: rest.refusalsInARow(), answered: release };
        release();
        continue;
      }
      if (!noted) judge.throttled(`${where} waited for the retry on its key to be answered before it was sent, for its key's last 429`);
      noted = true;
      await this.pollForRetry(where);
    }
  }

  /** One short wait, with jitter, for another request's retry on the key to be answered, no longer than the test may take. */
  private async pollForRetry(where: string): Promise<void> {
    const left = this.options.timeLeftMs();
    if (!(left > 0)) this.unanswered(`${where} was not sent: the retry on its key was not answered in the time this test had left`);
    // A real wait, whatever the client's wait: another worker's answer comes in real time.
    await sleep(Math.min(left, RETRY_POLL_MS * (0.5 + Math.random())));
  }

  /** At least Retry-After, plus exponential backoff with full jitter, growing with the refusals in a row. */
  private delayAfter(exchange: Exchange, inARow: number): number {
    const { backoff = DEFAULT_BACKOFF, random = Math.random } = this.options;
    const retryAfter = retryAfterMs(exchange.response.headers['retry-after'], exchange.receivedAt);
    return backoffDelayMs(inARow, retryAfter === undefined ? undefined : this.clock.toRealMs(retryAfter), backoff, random);
  }

  /** Honours a 429 before the next attempt: with the key's rest, the wait is turnToSend's. */
  private async waitOut(exchange: Exchange, attempt: number, delay: number): Promise<void> {
    const { wait = sleep, judge, timeLeftMs, rest } = this.options;
    const where = `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
    if (delay > timeLeftMs()) {
      this.unanswered(
        `${where} was refused with 429 and asked to wait ${Math.ceil(delay / 1000)} s (Retry-After: ${exchange.response.headers['retry-after'] ?? 'absent'}), longer than this test may take; the key's quota may be used up`,
      );
    }
    judge.throttled(`${where} answered 429 (Retry-After: ${exchange.response.headers['retry-after'] ?? 'absent'}); waited ${delay} ms before attempt ${attempt + 1}`);
    if (!rest) await wait(delay);
  }

  private async sendOnce(operation: OperationId, method: Method, path: string, body?: string, contentType?: string): Promise<Exchange> {
    const { transport, baseUrl, authorization, plan, judge } = this.options;
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.Authorization = authorization;
    if (contentType !== undefined) headers['Content-Type'] = contentType;
    const request: SentRequest = { method, url: `${baseUrl}${path}`, headers, ...(body !== undefined ? { body } : {}) };
    const kind = classifyRequest({ operation, method, path, contentType, body });
    let sentAt = this.clock.now();
    let response: ReceivedResponse;
    let dropped: { exchange: Exchange; error: Unanswered } | undefined;
    try {
      response = await this.answerTo(request, transport);
    } catch (error) {
      if (!(error instanceof Unanswered)) throw error;
      const lost: Exchange = { operation, request, response: { status: NO_RESPONSE_STATUS, headers: {}, body: '' }, json: undefined, plan, sentAt, receivedAt: this.clock.now(), kind };
      dropped = { exchange: lost, error };
      sentAt = this.clock.now();
      response = await this.sendAgain(lost, error);
    }
    const receivedAt = this.clock.now();
    // Parsed once, for the exchange's tree and the contract check alike.
    const answer = new JsonBody(response.body);
    const exchange: Exchange = { operation, request, response, json: answer.value, plan, sentAt, receivedAt, kind };
    this.answeredOperations.add(operation);
    if (dropped) this.judgeDropped(dropped.exchange, dropped.error, `the same request sent again was answered ${response.status}`, exchange);
    // Only a quota agreed for this run is handed over: a documented plan's is the contract's own.
    const quota = plan === undefined || plans[plan].documented ? undefined : quotaInRun(plan, this.options.enterpriseQuota);
    const violations = checkResponse({ operation: operationById(operation), status: response.status, headers: response.headers, body: answer, plan, quota, now: receivedAt, sentAt, outsideContract: kind.kind === 'outside' });
    if (this.options.deferJudgement) exchange.violations = violations;
    else for (const violation of violations) judge.expect(false, violation.message, { rule: violation.rule, evidence: exchange, byContractCheck: true });
    return exchange;
  }

  /** The answer to `request`; a request without one throws Unanswered, any other failure ends the test saying so. */
  private async answerTo(request: SentRequest, transport: Transport): Promise<ReceivedResponse> {
    try {
      return await transport.send(request);
    } catch (error) {
      if (error instanceof Unanswered) throw error;
      // The transports' messages name the request and the cause, never a header (a key).
      return this.unanswered(`no answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A request that got no answer (unanswered.ts) is sent once more, so the test goes on judging its own rules on
   * the answer (a create may then have been made twice, which no rule forbids a client). A measurement is not:
   * one more request changes what it counts, so it stops as partly checked. Without an answer to the operation
   * in this run, a request unanswered twice is a target that went away: not judged, the test could not complete.
   */
  private async sendAgain(dropped: Exchange, error: Unanswered): Promise<ReceivedResponse> {
    const where = `${dropped.request.method} ${new URL(dropped.request.url).pathname}`;
    if (this.options.politeness === 'measure') {
      if (this.answeredOperations.has(dropped.operation)) this.judgeDropped(dropped, error, `other requests to ${dropped.operation} were answered`);
      return this.unanswered(`the target gave a measuring request no answer (${error.message}), so this measurement could not finish; look at the target's logs`);
    }
    try {
      return await this.options.transport.send(dropped.request);
    } catch (again) {
      if (again instanceof Unanswered && this.answeredOperations.has(dropped.operation)) this.judgeDropped(dropped, error, `other requests to ${dropped.operation} were answered; sent again, it got none either`);
      return this.unanswered(`no answer to ${where}, sent twice: ${again instanceof Error ? again.message : String(again)}`);
    }
  }

  /** RESP-3 fails on the request that got no answer, beside the answered request that shows the operation answers. */
  private judgeDropped(dropped: Exchange, error: Unanswered, others: string, answered?: Exchange): void {
    const waited = Math.round(this.clock.toRealMs(dropped.receivedAt - dropped.sentAt));
    const message = `expected an answer to every request of ${dropped.operation}, got none (${error.how}) after ${waited} ms: ${error.message}; ${others}`;
    this.options.judge.expect(false, message, { rule: UNANSWERED_RULE, evidence: answered ? [dropped, answered] : dropped, byContractCheck: true });
  }

  /** A request the target gave no answer to judge by: the caller of a collecting client decides, any other test ends saying so. */
  private unanswered(cause: string): never {
    if (this.options.deferJudgement) throw new NoAnswer(cause);
    return this.options.judge.couldNotComplete(cause);
  }
}

/** A request's turn to go on its key: the key's refusals in a row when it went, and what to call once it is answered. */
interface Turn {
  inARow: number;
  answered(): void;
}

const NOT_A_RETRY: Turn = { inARow: 0, answered: () => {} };

/** How often, on average, a request held for another's retry on its key looks again (real ms). */
const RETRY_POLL_MS = 25;

/** The operations this worker has had an answer to: a request to one of them that gets none is dropped, not a target gone. */
const answeredInWorker = new Set<OperationId>();

function queryString(query: Query): string {
  const entries = Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value.map((each: string) => [name, each]) : [[name, String(value)]]));
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}
