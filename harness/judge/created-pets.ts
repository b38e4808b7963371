/**
 * What the service answers of a pet the capture saw created (GET-1, DEP-1, LIST-7): once a creation was answered 201
 * with a Pet, that id exists (the interface removes no animal), so a request sent after that answer finds it:
 * - getPet of it is answered 200 with the Pet as it was created (every field the creation's answer carried, the
 *   same; more fields are the target's to add), and, before getPet's removal date, not as if the operation or the
 *   animal were gone (404, 410);
 * - a list filtered by its status that is not full (fewer animals than its limit) holds it.
 *
 * "Sent after" is order.ts's: a request sent within the clock skew of the creation's answer may have been decided first
 * on two clocks (merged captures), and one without its request's time at any time before its answer; neither is
 * judged, and the report says so. What is kept is the latest creations' answers, a bounded number: never the exchanges.
 * An id that createPet hands out a second time shows the store was reset within the capture: the pets created before
 * are not judged from then on, and the report says why.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import type { JsonBody } from '../../lib/json-body.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import { listQuery } from '../../lib/list-query.ts';
import { PAGE_SIZE } from '../../lib/page-size.ts';
import { decidedAfter, type Order } from '../../lib/rate-limiter/order.ts';
import { SUNSET_MS } from '../../lib/request-rules.ts';
import type { ExchangeFindings } from './rule-tally.ts';

type Fields = Record<string, LosslessValue>;

interface Created {
  /** Each field the creation's answer carried, as JSON text. */
  fields: ReadonlyMap<string, string>;
  status: string | undefined;
  /** The creation's exchange, by its position in the capture. */
  exchange: number;
  answeredAt: number;
}

/**
 * A field's value as JSON text, exact for integers past 2^53. A field holding an object or an array goes through
 * stringifyLossless; the rest do not: it compiles a regular expression a call, which a judge of millions of answers
 * pays for in time and in V8's regular expression cache.
 */
function textOf(value: LosslessValue | undefined): string {
  if (typeof value === 'bigint') return value.toString();
  return value !== null && typeof value === 'object' ? stringifyLossless(value) : JSON.stringify(value ?? null);
}

/** Creations remembered: a getPet of an older one is not judged (a bounded memory, whatever the capture's length). */
const REMEMBERED = 2_000;
/** What a removed operation, or a removed animal, is answered with. */
const GONE = new Set([404, 410]);
const MAYBE_BEFORE = "requests sent within the clock skew after a pet's creation was answered: two clocks may have put them first";
const UNTIMED = "requests about a created pet without their request's time (a log without duration): they may have been decided before the creation";
const STORE_RESET = 'pets created before createPet handed out an id it had handed out already: the store was reset within the capture (a staging store), so what became of them is unknown';
/** Missing pets named in one finding: enough to follow it. */
const MAX_NAMED = 5;

const GET_AS_CREATED = RULE['get-as-created'];
const GETPET_WORKS = RULE['getpet-works'];
const ADDED_IS_LISTED = RULE['added-is-listed'];

export class CreatedPets {
  private readonly pets = new Map<string, Created>();
  /** Ids of pets created before a reset of the store the capture showed, not created again since (as many as REMEMBERED). */
  private readonly beforeReset = new Set<string>();

  constructor(private readonly clockSkewMs: number) {}

  /** What one answered exchange shows: a creation is remembered; a getPet of a remembered pet is judged. */
  add(exchange: JudgedExchange, operation: string, body: JsonBody | undefined, findings: ExchangeFindings): void {
    if (operation === 'createPet' && exchange.status === 201) this.remember(exchange, body, findings);
    if (operation === 'getPet') this.judgeGet(exchange, body, findings);
    if (operation === 'listPets' && exchange.status === 200 && body !== undefined) this.judgeList(exchange, body, findings);
  }

  /**
   * A list by status, not full: every pet the capture saw created with that status before it was sent is in it. A
   * list without a status filter, or full, says nothing of a pet it leaves out (another page may hold it).
   */
  private judgeList(exchange: JudgedExchange, body: JsonBody, findings: ExchangeFindings): void {
    const { statuses, limits } = listQuery(queryUpToSecondMark(exchange.path));
    const status = statuses[0];
    const pets = body.value;
    const limit = Number(limits[0] ?? PAGE_SIZE.default);
    // A query given twice, or a limit outside the contract's, leaves how many the page holds to the target (LIST-GAP-2).
    if (status === undefined || statuses.length > 1 || limits.length > 1 || !Array.isArray(pets)) return;
    if (!Number.isInteger(limit) || limit < PAGE_SIZE.minimum || limit > PAGE_SIZE.maximum || pets.length >= limit) return;
    const listed = new Set(pets.map((pet) => (pet !== null && typeof pet === 'object' && !Array.isArray(pet) ? idText((pet as Fields).id) : undefined)));
    const missing: string[] = [];
    const orders = new Set<Order>();
    for (const [id, created] of this.pets) {
      if (created.status !== status) continue;
      const order = decidedAfter({ receivedAt: created.answeredAt }, { sentAt: exchange.sentAt }, this.clockSkewMs);
      orders.add(order);
      if (order === 'after' && !listed.has(id)) missing.push(`${id} (exchange ${created.exchange})`);
    }
    if (orders.has('maybe-after')) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: MAYBE_BEFORE });
    if (orders.has('unknown') && exchange.sentAt === undefined) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: UNTIMED });
    if (!orders.has('after')) return;
    findings.judged.push(ADDED_IS_LISTED);
    if (missing.length === 0) return;
    const named = missing.length > MAX_NAMED ? `${missing.slice(0, MAX_NAMED).join(', ')} and ${missing.length - MAX_NAMED} more` : missing.join(', ');
    findings.violations.push({ rule: ADDED_IS_LISTED, message: `expected every ${status} pet created (201) before this list was sent in it, since it is not full (${pets.length} of at most ${limit}); missing ${named}` });
  }

  private remember(exchange: JudgedExchange, body: JsonBody | undefined, findings: ExchangeFindings): void {
    const pet = body?.value;
    if (pet === undefined || pet === null || typeof pet !== 'object' || Array.isArray(pet)) return;
    const id = idText((pet as Fields).id);
    if (id === undefined) return;
    if (this.pets.has(id)) this.forgetBeforeReset(findings);
    this.beforeReset.delete(id);
    const fields = new Map(Object.entries(pet as Fields).map(([name, value]) => [name, textOf(value)]));
    this.pets.delete(id);
    this.pets.set(id, { fields, status: typeof (pet as Fields).status === 'string' ? ((pet as Fields).status as string) : undefined, exchange: exchange.number, answeredAt: exchange.answeredAt });
    if (this.pets.size > REMEMBERED) this.pets.delete(this.pets.keys().next().value!);
  }

  /**
   * An id handed out twice: the interface removes no animal, so the store the capture ran against was reset in
   * between, and every pet created before may be gone or another animal now. They are not judged from here on.
   */
  private forgetBeforeReset(findings: ExchangeFindings): void {
    for (const id of this.pets.keys()) this.beforeReset.add(id);
    this.pets.clear();
    while (this.beforeReset.size > REMEMBERED) this.beforeReset.delete(this.beforeReset.values().next().value!);
    for (const rule of [GET_AS_CREATED, GETPET_WORKS, ADDED_IS_LISTED]) findings.unchecked.push({ rule, reason: STORE_RESET });
  }

  private judgeGet(exchange: JudgedExchange, body: JsonBody | undefined, findings: ExchangeFindings): void {
    const named = /\/pets\/([^/?]+)(?:\?|$)/.exec(exchange.path)?.[1];
    if (named === undefined) return;
    const id = named.includes('%') ? decodeURIComponent(named) : named;
    if (this.beforeReset.has(id)) {
      for (const rule of [GET_AS_CREATED, GETPET_WORKS]) findings.unchecked.push({ rule, reason: STORE_RESET });
      return;
    }
    const created = this.pets.get(id);
    if (!created || (exchange.status !== 200 && !GONE.has(exchange.status))) return;
    const order = decidedAfter({ receivedAt: created.answeredAt }, { sentAt: exchange.sentAt }, this.clockSkewMs);
    if (order !== 'after') {
      for (const rule of [GET_AS_CREATED, GETPET_WORKS]) findings.unchecked.push({ rule, reason: order === 'maybe-after' ? MAYBE_BEFORE : UNTIMED });
      return;
    }
    findings.judged.push(GET_AS_CREATED, GETPET_WORKS);
    if (GONE.has(exchange.status)) {
      findings.violations.push({ rule: GET_AS_CREATED, message: `expected ${asCreated(named, created)}, got ${exchange.status}` });
      if (exchange.answeredAt < SUNSET_MS) findings.violations.push({ rule: GETPET_WORKS, message: `expected getPet to answer 200 for ${asCreated(named, created)} before its removal date, got ${exchange.status}: as if it were removed` });
      return;
    }
    if (body === undefined) {
      findings.unchecked.push({ rule: GET_AS_CREATED, reason: 'getPet answers of created pets whose body the capture does not hold: only their status was judged' });
      return;
    }
    const got = body.value;
    const fields = got !== null && typeof got === 'object' && !Array.isArray(got) ? (got as Fields) : {};
    const differs: string[] = [];
    for (const [name, value] of created.fields) if (textOf(fields[name]) !== value) differs.push(name);
    if (differs.length > 0) findings.violations.push({ rule: GET_AS_CREATED, message: `expected ${asCreated(named, created)}, got ${differs.join(', ')} otherwise: ${(body.text || '').slice(0, 200)}` });
  }
}

/**
 * The path as the created pets read its query: up to a second "?", where the list rules read on to the end (a query
 * may hold a "?"). Nearly every path has one "?" at most, and is read whole.
 */
function queryUpToSecondMark(path: string): string {
  const first = path.indexOf('?');
  const second = first === -1 ? -1 : path.indexOf('?', first + 1);
  return second === -1 ? path : path.slice(0, second);
}

/** A created pet as a message shows it: its id as the request named it, the creation's exchange and its fields. */
function asCreated(id: string, created: Created): string {
  return `pet ${id} as created (exchange ${created.exchange}: {${[...created.fields].map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',').slice(0, 200)}})`;
}
