/**
 * The bundled server certify-client runs a client against: the reference server, whose limiter is the refusal
 * plan (refusal-plan.ts) instead of a quota, and which records every request a key sends, when it came and
 * what it got. Its clock may run faster than real time (PETSTORE_CLOCK_RATE's fast clock), for clients whose
 * own clock runs as fast (fast-clock.mjs): Retry-After, Date and X-RateLimit-Reset then speak of that clock.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { KeysByPlan } from '../../lib/keys.ts';
import type { Quota } from '../../lib/plans.ts';
import { targetClock } from '../../lib/target-clock.ts';
import type { RateDecision, RateLimiter } from '../../reference-server/limiter.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import type { ClientExchange } from '../judge/client-exchange.ts';
import type { CrossingEvidence } from '../judge/client-rule-judge.ts';
import { CLIENT_REQUEST_HEADER, CLIENT_SENT_HEADER, clientRequestName, clientSentAt, REFUSAL_HEADER } from './crossing.ts';
import { KeyPlan, planSteps, type PlannedAnswer, type Scenario } from './refusal-plan.ts';

/** The plans a client is given a key of; each key goes through the plan on its own. */
export const CLIENT_PLANS = ['free', 'pro', 'business'] as const;

export interface RecordedExchange extends ClientExchange, CrossingEvidence {
  /** Which request it was in the order they came: a 429 names it in its REFUSAL_HEADER, for the client's evidence. */
  arrival: number;
  /** The case of the plan a refusal belongs to. */
  scenario: Scenario | undefined;
  /** The answer's headers, names in lower case. */
  responseHeaders: Record<string, string>;
  /** The name the client's fast-clock.mjs gave the request, under which it noted when the request was written. */
  clientRequest: string | undefined;
}

export interface RefusingServer {
  baseUrl: string;
  server: Server;
  /** A fresh key per plan, made for this run only. */
  keys: Record<(typeof CLIENT_PLANS)[number], string>;
  /** The server's clock: ms since the epoch, running `rate` times faster than real time. */
  clock: { rate: number; anchorMs: number; now(): number; at(realMs: number): number };
  exchanges: RecordedExchange[];
  /** Requests that carried none of the keys the client was given: not judged, but counted and the first described. */
  strays: Strays;
  close(): Promise<void>;
}

export interface Strays {
  requests: number;
  /** The first, without the credential it carried: "GET /v1/pets with no Authorization header". */
  first: string | undefined;
}

export async function startRefusingServer(options: { seed: number; clockRate: number }): Promise<RefusingServer> {
  const anchorMs = Date.now();
  const clock = targetClock(options.clockRate, anchorMs);
  const keys = Object.fromEntries(CLIENT_PLANS.map((plan) => [plan, `certify-client-${plan}-${randomBytes(12).toString('hex')}`])) as RefusingServer['keys'];
  const byKey = new Map(CLIENT_PLANS.map((plan) => [`key ${keys[plan]}`, plan]));
  const planner = new PlannedLimiter(options.seed, byKey);
  const allKeys: KeysByPlan = { free: [keys.free], pro: [keys.pro], business: [keys.business], enterprise: [] };
  const running = await createReferenceServer({ keys: allKeys, clockRate: options.clockRate, clockAnchorMs: anchorMs }, { limiter: planner, clock: clock.now });
  const exchanges: RecordedExchange[] = [];
  const strays: Strays = { requests: 0, first: undefined };
  const connections = new WeakMap<Socket, number>();
  let arrivals = 0;
  let opened = 0;
  running.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const arrived = clock.now();
    const arrival = ++arrivals;
    let connection = connections.get(req.socket);
    if (connection === undefined) {
      connection = ++opened;
      connections.set(req.socket, connection);
    }
    const sentByClient = clientSentAt(req.headers[CLIENT_SENT_HEADER]);
    const clientRequest = clientRequestName(req.headers[CLIENT_REQUEST_HEADER]);
    const token = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    const plan = token === undefined ? undefined : byKey.get(`key ${token}`);
    if (plan === undefined) {
      strays.requests++;
      strays.first ??= `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]} ${credentialOf(req.headers.authorization)}`;
      return;
    }
    // The date form of Retry-After replaces the whole seconds the reference server writes, and every answer
    // carries Date on the same clock, as the date form is read against it.
    const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
    let scenario: Scenario | undefined;
    let written: OutgoingHttpHeaders = {};
    // When the answer was written, not when it was flushed: a busy server's 'finish' comes late, and would make
    // the client's next request look sooner than it was.
    let answeredAt = arrived;
    res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
      // A refusal is written as soon as it is decided, so the plan's last answer for the key is this one.
      const planned = planner.lastAnswer.get(plan);
      if (status === 429) scenario = planned?.scenario;
      const dated = status === 429 && planned?.retryAfterHeader !== undefined ? { 'Retry-After': planned.retryAfterHeader } : {};
      const named = status === 429 ? { [REFUSAL_HEADER]: String(arrival) } : {};
      answeredAt = clock.now();
      written = { ...headers, Date: new Date(clock.now()).toUTCString(), ...dated, ...named };
      return writeHead(status, written);
    }) as typeof res.writeHead;
    res.once('finish', () => {
      const headers = Object.fromEntries(Object.entries({ ...res.getHeaders(), ...written }).map(([name, value]) => [name.toLowerCase(), String(value)]));
      exchanges.push({
        number: exchanges.length + 1,
        key: plan,
        method: req.method ?? 'GET',
        path: (req.url ?? '/').replace(/^\/v1/, ''),
        sentAt: arrived,
        answeredAt,
        status: res.statusCode,
        retryAfter: headers['retry-after'],
        date: headers.date,
        scenario,
        responseHeaders: headers,
        arrival,
        connection,
        clientRequest,
        ...(sentByClient === undefined ? {} : { clientSentAt: clock.at(sentByClient) }),
      });
    });
  });
  return { baseUrl: running.baseUrl, server: running.server, keys, clock: { rate: options.clockRate, anchorMs, now: clock.now, at: clock.at }, exchanges, strays, close: running.close };
}

/** A run's exchanges per key, each key's in the order they came. */
export function exchangesByKey(exchanges: readonly RecordedExchange[]): Map<string, RecordedExchange[]> {
  const byKey = new Map<string, RecordedExchange[]>();
  for (const exchange of exchanges) {
    const list = byKey.get(exchange.key);
    if (list) list.push(exchange);
    else byKey.set(exchange.key, [exchange]);
  }
  return byKey;
}

/** What a request carried instead of a key it was given, never the credential itself. */
function credentialOf(authorization: string | undefined): string {
  if (authorization === undefined) return 'with no Authorization header';
  const scheme = /^(\S+)\s+\S/.exec(authorization)?.[1];
  if (scheme === undefined) return 'with an Authorization header that names no scheme';
  return /^bearer$/i.test(scheme) ? 'with a bearer key it was not given' : `with Authorization: ${scheme.slice(0, 20)} … (not Bearer)`;
}

/** The plan as the reference server's limiter: a key's request is admitted or refused as its plan says. */
class PlannedLimiter implements RateLimiter {
  readonly lastAnswer = new Map<string, PlannedAnswer>();
  private readonly plans = new Map<string, KeyPlan>();

  constructor(
    private readonly seed: number,
    private readonly byKey: ReadonlyMap<string, string>,
  ) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    const plan = this.byKey.get(subject);
    const reset = Math.ceil(now / 1000) + 60;
    if (plan === undefined) return { admitted: true, banned: false, limit: quota.perMinute, remaining: quota.perMinute - 1, reset };
    let keyPlan = this.plans.get(plan);
    if (!keyPlan) {
      keyPlan = new KeyPlan(planSteps(this.seed));
      this.plans.set(plan, keyPlan);
    }
    const answer = keyPlan.answer(now);
    this.lastAnswer.set(plan, answer);
    if (answer.admitted) return { admitted: true, banned: false, limit: quota.perMinute, remaining: quota.perMinute - 1, reset };
    return { admitted: false, banned: answer.banned, limit: quota.perMinute, remaining: 0, reset: Math.max(reset, Math.ceil(answer.until / 1000)), retryAfter: answer.retryAfterSeconds };
  }
}
