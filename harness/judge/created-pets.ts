/**
 * What the service answers of a pet the capture saw created (GET-1, DEP-1, LIST-7): once a creation was answered 201
 * with a Pet, that id exists (the interface removes no animal), so a request sent after that answer finds it:
 * - getPet of it is answered 200 with the Pet as it was created (every field the creation's answer carried, the
 *   same; more fields are the target's to add), and, before getPet's removal date, not as if the operation or the
 *   animal were gone (404, 410). Its `status` is the exception: the spec shows no transitions (STATE-GAP-1), and
 *   another client, an admin or the store-orders area may move a pet to another PetStatus at any time, so a getPet
 *   answering another PetStatus leaves GET-1 partly checked for it, its other fields judged;
 * - a list filtered by a status that is not full (fewer animals than its limit) holds it while it has that status.
 *   The capture shows a pet's status only where an answer carries it (its creation, a getPet, a list's entry), each
 *   decided somewhere between its request leaving and its answer coming, so a pet left out of such a list is
 *   evidence only where nothing the capture shows could have moved it: an answer decided before the list (its
 *   answer came before the list was sent) showed it with the list's status, an answer decided after the list (sent
 *   after the list's answer came) showed that status again, and no answer that may lie between those two showed
 *   another. Elsewhere LIST-7 is left partly checked for it, saying why. What this cannot rule out is a move and a
 *   move back that no answer in the capture shows (the other party's own requests are not in it): the judge holds
 *   a pet to the status the capture showed on both sides of the list. A list's verdict on a pet it leaves out waits
 *   for the answers after it, so it is given when the capture ends.
 * A list without a status filter is held to nothing here, full or not: the spec says only that it "returns a
 * paginated list of animals" and how pages follow each other is not shown (LIST-GAP-1), and LIST-7 binds lists by
 * status only; its entries still show each pet's status.
 *
 * "Sent after" is order.ts's: a request sent within the clock skew of an answer may have been decided first on two
 * clocks (merged captures), and one without its request's time at any time before its answer; neither is judged,
 * and the report says so. What is kept is the latest creations, with the first and last answer that showed each
 * status of theirs, and the lists' misses awaiting a later answer, bounded numbers: never the exchanges.
 * An id that createPet hands out a second time shows the store was reset within the capture: the pets created before
 * are not judged from then on, and the report says why.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import { componentSchema } from '../../lib/contract.ts';
import type { JsonBody } from '../../lib/json-body.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import { listQuery } from '../../lib/list-query.ts';
import { PAGE_SIZE } from '../../lib/page-size.ts';
import { decidedAfter, type Order } from '../../lib/rate-limiter/order.ts';
import { SUNSET_MS } from '../../lib/request-rules.ts';
import type { ExchangeFindings, RuleTallies } from './rule-tally.ts';

type Fields = Record<string, LosslessValue>;

/** An answer that showed a pet's status, decided between its request leaving and its answer coming. */
interface Witness {
  status: string;
  sentAt: number | undefined;
  answeredAt: number;
  exchange: number;
}

/** What the capture showed of one status of a pet. */
interface StatusSeen {
  status: string;
  /** The answer that came first, and the one whose request left last: a list's answer before it is one of them. */
  first: Witness;
  last: Witness;
  /** When the latest answer showing this status came. */
  lastAnsweredAt: number;
}

/** A list by `status`, not full, that left out a pet seen with that status before it was sent: judged once the capture ends. */
interface Miss {
  id: string;
  status: string;
  list: { exchange: number; answeredAt: number; length: number; limit: number };
  /** The answer before the list that showed the pet with its status. */
  before: Witness;
  /** The earliest answer after the list that showed that status again. */
  after: Witness | undefined;
  /** Why the pet's absence is not evidence, once it is not. */
  unjudged: string | undefined;
}

interface Created {
  /** Each field the creation's answer carried, as JSON text. */
  fields: ReadonlyMap<string, string>;
  /** The creation's exchange, by its position in the capture. */
  exchange: number;
  answeredAt: number;
  /** Each status the capture showed it with. */
  seen: StatusSeen[];
  /** Lists that left it out, awaiting what came after them (as many as MISSES_KEPT, with every other pet's). */
  misses: Miss[];
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

function isFields(value: LosslessValue | undefined): value is Fields {
  return value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Creations remembered: a getPet of an older one is not judged (a bounded memory, whatever the capture's length). */
const REMEMBERED = 2_000;
/** Pets left out of lists awaiting what came after them: the oldest past this are left unjudged. */
const MISSES_KEPT = 2_000;
/** What a removed operation, or a removed animal, is answered with. */
const GONE = new Set([404, 410]);
/** The PetStatus values, from the contract: a status another party may move a pet to. */
const PET_STATUSES: ReadonlySet<string> = new Set(componentSchema('PetStatus').enum);
const MAYBE_BEFORE = "requests sent within the clock skew after a pet's creation was answered: two clocks may have put them first";
const UNTIMED = "requests about a created pet without their request's time (a log without duration): they may have been decided before the creation";
const STORE_RESET = 'pets created before createPet handed out an id it had handed out already: the store was reset within the capture (a staging store), so what became of them is unknown';
const TRANSITIONS = 'status transitions are a gap of the spec (STATE-GAP-1): another client, an admin or the store-orders area may have moved it';
const GET_MOVED = `getPet answers of created pets with another status than their creation's: ${TRANSITIONS}; their other fields were judged`;
const LIST_MOVED = `created pets left out of a list by a status they were seen with, not full, and seen with another status by an answer that may lie between: ${TRANSITIONS}`;
const LIST_NOT_SEEN_AFTER = `created pets left out of a list by a status they were seen with, not full, that no answer sent after the list came (a getPet, a list) showed with that status again: ${TRANSITIONS}`;
const MISSES_FORGOTTEN = `created pets left out of a list by their status, past the ${REMEMBERED.toLocaleString('en-US')} pets or ${MISSES_KEPT.toLocaleString('en-US')} misses the judge keeps: what came after the list is not known`;
/** Missing pets named in one finding: enough to follow it. */
const MAX_NAMED = 5;

const GET_AS_CREATED = RULE['get-as-created'];
const GETPET_WORKS = RULE['getpet-works'];
const ADDED_IS_LISTED = RULE['added-is-listed'];

export class CreatedPets {
  private readonly pets = new Map<string, Created>();
  /** Ids of pets created before a reset of the store the capture showed, not created again since (as many as REMEMBERED). */
  private readonly beforeReset = new Set<string>();
  /** Pets left out of lists, in the lists' order, awaiting what came after them. */
  private misses: Miss[] = [];

  constructor(private readonly clockSkewMs: number) {}

  /** What one answered exchange shows: a creation is remembered; a getPet of a remembered pet, or a list, is judged. */
  add(exchange: JudgedExchange, operation: string, body: JsonBody | undefined, findings: ExchangeFindings): void {
    if (operation === 'createPet' && exchange.status === 201) this.remember(exchange, body, findings);
    if (operation === 'getPet') this.judgeGet(exchange, body, findings);
    if (operation === 'listPets' && exchange.status === 200 && body !== undefined && Array.isArray(body.value)) {
      this.judgeList(exchange, body.value, findings);
      if (this.pets.size > 0) for (const pet of body.value) if (isFields(pet)) this.witness(idText(pet.id), pet, exchange);
    }
  }

  /**
   * The capture has ended: each pet a list left out is judged on the answers after it. Left out while an answer
   * before and one after the list showed it with the list's status, and none that may lie between another, it
   * breaks LIST-7; otherwise the rule is left partly checked, saying why.
   */
  finish(tallies: RuleTallies): void {
    const byList = new Map<number, Miss[]>();
    for (const miss of this.misses) {
      const misses = byList.get(miss.list.exchange);
      if (misses === undefined) byList.set(miss.list.exchange, [miss]);
      else misses.push(miss);
    }
    for (const misses of byList.values()) {
      const missing: string[] = [];
      for (const miss of misses) {
        const unjudged = miss.unjudged ?? (miss.after === undefined ? LIST_NOT_SEEN_AFTER : undefined);
        if (unjudged !== undefined) tallies.unchecked(ADDED_IS_LISTED, unjudged);
        else missing.push(`${miss.id} (${miss.status} at exchanges ${miss.before.exchange} and ${miss.after!.exchange})`);
      }
      if (missing.length === 0) continue;
      const { status, list } = misses[0]!;
      const named = missing.length > MAX_NAMED ? `${missing.slice(0, MAX_NAMED).join(', ')} and ${missing.length - MAX_NAMED} more` : missing.join(', ');
      tallies.violated(ADDED_IS_LISTED, `expected every ${status} pet created (201) in this list by status, not full (${list.length} of at most ${list.limit}), where an answer before it was sent and one after it came showed the pet ${status}, and none between another status; missing ${named} (exchange ${list.exchange})`, undefined);
    }
    this.misses = [];
  }

  /**
   * A list by status, not full: every pet the capture saw created and showed with that status before it was sent is
   * in it, or left out to be judged on what came after (finish). A list without a status filter, or full, says
   * nothing of a pet it leaves out (another page may hold it).
   */
  private judgeList(exchange: JudgedExchange, pets: readonly LosslessValue[], findings: ExchangeFindings): void {
    const { statuses, limits } = listQuery(exchange.path);
    const status = statuses[0];
    const limit = Number(limits[0] ?? PAGE_SIZE.default);
    // A query given twice, or a limit outside the contract's, leaves how many the page holds to the target (LIST-GAP-2).
    if (status === undefined || statuses.length > 1 || limits.length > 1) return;
    if (!Number.isInteger(limit) || limit < PAGE_SIZE.minimum || limit > PAGE_SIZE.maximum || pets.length >= limit) return;
    const listed = new Set(pets.map((pet) => (isFields(pet) ? idText(pet.id) : undefined)));
    const orders = new Set<Order>();
    const list: Miss['list'] = { exchange: exchange.number, answeredAt: exchange.answeredAt, length: pets.length, limit };
    let moved = false;
    for (const [id, created] of this.pets) {
      const seen = created.seen.find((each) => each.status === status);
      if (seen === undefined) continue;
      const before = this.decidedBefore(seen, exchange);
      orders.add(before === undefined ? decidedAfter({ receivedAt: seen.first.answeredAt }, { sentAt: exchange.sentAt }, this.clockSkewMs) : 'after');
      if (before === undefined || listed.has(id)) continue;
      if (created.seen.some((other) => other !== seen && !this.isAfter(other.lastAnsweredAt, before.sentAt))) {
        moved = true;
        continue;
      }
      const miss: Miss = { id, status, list, before, after: undefined, unjudged: undefined };
      created.misses.push(miss);
      this.misses.push(miss);
    }
    if (this.misses.length > MISSES_KEPT) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: MISSES_FORGOTTEN });
    while (this.misses.length > MISSES_KEPT) {
      const oldest = this.misses.shift()!;
      const created = this.pets.get(oldest.id);
      if (created !== undefined) created.misses = created.misses.filter((miss) => miss !== oldest);
    }
    if (orders.has('maybe-after')) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: MAYBE_BEFORE });
    if (orders.has('unknown') && exchange.sentAt === undefined) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: UNTIMED });
    if (moved) findings.unchecked.push({ rule: ADDED_IS_LISTED, reason: LIST_MOVED });
    if (orders.has('after')) findings.judged.push(ADDED_IS_LISTED);
  }

  /** Of the answers that showed a status, one decided before the exchange was sent: the one sent last, if it is. */
  private decidedBefore(seen: StatusSeen, exchange: JudgedExchange): Witness | undefined {
    return [seen.last, seen.first].find((witness) => this.isAfter(witness.answeredAt, exchange.sentAt));
  }

  /** Whether a request sent at `sentAt` was decided after an answer that came at `answeredAt`, whatever the clocks. */
  private isAfter(answeredAt: number, sentAt: number | undefined): boolean {
    return decidedAfter({ receivedAt: answeredAt }, { sentAt }, this.clockSkewMs) === 'after';
  }

  /**
   * An answer showing a remembered pet's status: kept as what the capture saw of it, and put to the lists that left
   * it out: the same status after such a list confirms it was there to list; another that may lie between says
   * another party may have moved it.
   */
  private witness(id: string | undefined, pet: Fields, exchange: JudgedExchange): void {
    const created = id === undefined ? undefined : this.pets.get(id);
    if (created === undefined || typeof pet.status !== 'string') return;
    const witness: Witness = { status: pet.status, sentAt: exchange.sentAt, answeredAt: exchange.answeredAt, exchange: exchange.number };
    const seen = created.seen.find((each) => each.status === witness.status);
    if (seen === undefined) created.seen.push({ status: witness.status, first: witness, last: witness, lastAnsweredAt: witness.answeredAt });
    else {
      if (witness.answeredAt < seen.first.answeredAt) seen.first = witness;
      if ((witness.sentAt ?? -Infinity) > (seen.last.sentAt ?? -Infinity)) seen.last = witness;
      seen.lastAnsweredAt = Math.max(seen.lastAnsweredAt, witness.answeredAt);
    }
    for (const miss of created.misses) {
      if (miss.status === witness.status) {
        if (this.isAfter(miss.list.answeredAt, witness.sentAt) && (miss.after === undefined || witness.answeredAt < miss.after.answeredAt)) miss.after = witness;
      } else if (!this.isAfter(witness.answeredAt, miss.before.sentAt) && !(miss.after !== undefined && this.isAfter(miss.after.answeredAt, witness.sentAt))) {
        miss.unjudged ??= LIST_MOVED;
      }
    }
  }

  private remember(exchange: JudgedExchange, body: JsonBody | undefined, findings: ExchangeFindings): void {
    const pet = body?.value;
    if (!isFields(pet)) return;
    const id = idText(pet.id);
    if (id === undefined) return;
    if (this.pets.has(id)) this.forgetBeforeReset(findings);
    this.beforeReset.delete(id);
    const fields = new Map(Object.entries(pet).map(([name, value]) => [name, textOf(value)]));
    this.pets.delete(id);
    this.pets.set(id, { fields, exchange: exchange.number, answeredAt: exchange.answeredAt, seen: [], misses: [] });
    this.witness(id, pet, exchange);
    if (this.pets.size > REMEMBERED) this.forget(this.pets.keys().next().value!, MISSES_FORGOTTEN);
  }

  /** A pet no longer followed: the lists that left it out cannot be judged on what comes after. */
  private forget(id: string, why: string): void {
    for (const miss of this.pets.get(id)?.misses ?? []) miss.unjudged ??= why;
    this.pets.delete(id);
  }

  /**
   * An id handed out twice: the interface removes no animal, so the store the capture ran against was reset in
   * between, and every pet created before may be gone or another animal now. They are not judged from here on.
   */
  private forgetBeforeReset(findings: ExchangeFindings): void {
    for (const id of [...this.pets.keys()]) {
      this.beforeReset.add(id);
      this.forget(id, STORE_RESET);
    }
    while (this.beforeReset.size > REMEMBERED) this.beforeReset.delete(this.beforeReset.values().next().value!);
    for (const rule of [GET_AS_CREATED, GETPET_WORKS, ADDED_IS_LISTED]) findings.unchecked.push({ rule, reason: STORE_RESET });
  }

  private judgeGet(exchange: JudgedExchange, body: JsonBody | undefined, findings: ExchangeFindings): void {
    const named = /\/pets\/([^/?]+)(?:\?|$)/.exec(exchange.path)?.[1];
    if (named === undefined) return;
    const asked = named.includes('%') ? decodeURIComponent(named) : named;
    if (this.beforeReset.has(asked)) {
      for (const rule of [GET_AS_CREATED, GETPET_WORKS]) findings.unchecked.push({ rule, reason: STORE_RESET });
      return;
    }
    const created = this.pets.get(asked);
    if (!created || (exchange.status !== 200 && !GONE.has(exchange.status))) return;
    const got = body?.value;
    // Another pet in its place (GET-1's to fail) shows nothing of this one's status.
    if (exchange.status === 200 && isFields(got) && idText(got.id) === asked) this.witness(asked, got, exchange);
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
    const fields = isFields(got) ? got : {};
    const differs = [...created.fields].filter(([name, value]) => textOf(fields[name]) !== value).map(([name]) => name);
    // Another PetStatus is a move another party may have made; anything else in its place is not the pet as created.
    const moved = differs.includes('status') && typeof fields.status === 'string' && PET_STATUSES.has(fields.status);
    if (moved) findings.unchecked.push({ rule: GET_AS_CREATED, reason: GET_MOVED });
    const wrong = moved ? differs.filter((name) => name !== 'status') : differs;
    if (wrong.length > 0) findings.violations.push({ rule: GET_AS_CREATED, message: `expected ${asCreated(named, created)}, got ${wrong.join(', ')} otherwise: ${(body.text || '').slice(0, 200)}` });
  }
}

/** A created pet as a message shows it: its id as the request named it, the creation's exchange and its fields. */
function asCreated(id: string, created: Created): string {
  return `pet ${id} as created (exchange ${created.exchange}: {${[...created.fields].map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',').slice(0, 200)}})`;
}
