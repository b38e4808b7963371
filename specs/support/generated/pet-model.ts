/**
 * Stateful sequences for the generated project: creations, gets and filtered lists in any order, against a
 * model of what the target must then show. A created pet is returned by getPet as it was sent (GET-1), is in
 * every list filtered by its status that is not full (LIST-7), and no two creations share an id (CREATE-5).
 * Other clients may write at the same time: the model only speaks of the pets this sequence created. They may move
 * those pets to another status too (transitions are not shown, STATE-GAP-1): the model follows the status the target
 * last showed, getPet answering another PetStatus leaves GET-1 partly checked, and a pet a list by its status leaves
 * out breaks LIST-7 only when getPet after the list still answers that status; otherwise LIST-7 is partly checked.
 */
import { RULE } from '../../../lib/checks/registry.ts';
import fc from 'fast-check';
import type { ContractSchema } from '../../../lib/contract.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { PAGE_SIZE } from '../../../lib/page-size.ts';
import type { PetStoreClient } from '../client.ts';
import type { Exchange } from '../exchange.ts';
import type { Checked, Problem } from './property.ts';
import { isRateLimitHeaderRule } from '../incidental-findings.ts';
import { refusalAtGap } from './gap-refusal.ts';
import { validValue } from './valid-values.ts';

type Fields = Record<string, LosslessValue>;

interface CreatedPet {
  /** As sent. */
  sent: Fields;
  /** The status the target last showed it with (its creation's, if none since); undefined while none was shown. */
  status: string | undefined;
}

interface Model {
  /** Pets this sequence created, by id as text. */
  created: Map<string, CreatedPet>;
}

interface Real {
  client: PetStoreClient;
  last: Exchange | undefined;
  sent: number;
  /** What of the rules the sequence could not check, and why. */
  unchecked: Problem[];
}

const TRANSITIONS = 'status transitions are a gap of the spec (STATE-GAP-1): another party may have moved it';

/** A command's finding: ends the sequence, which fast-check then shrinks. */
class Broken extends Error {
  constructor(
    readonly problem: Problem,
    readonly exchange: Exchange,
  ) {
    super(problem.message);
  }
}

/** The largest page, so a list is rarely full and its silence about a pet means something. */
const LIST_LIMIT = PAGE_SIZE.maximum;

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pet: Fields,
    readonly schema: ContractSchema,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const create = (pet: Fields): Promise<Exchange> => send(real, () => real.client.createPetRaw({ body: stringifyLossless(pet), contentType: 'application/json' }));
    const refusedOrCreated = await create(this.pet);
    // A value at a gap the service refuses is its choice: the sequence goes on with the pet made ordinary.
    const refusal = await refusalAtGap(this.schema, this.pet, refusedOrCreated, create);
    if (refusal && 'ordinary' in refusal) {
      const message = `expected ${stringifyLossless(this.pet)} created, or refused for a value at a gap (${refusedOrCreated.kind.why}); it was refused, and so was the same pet with ordinary values ${stringifyLossless(refusal.ordinary)}: ${refusal.exchange.response.status} ${refusal.exchange.response.body.slice(0, 200)}`;
      throw new Broken({ rule: RULE['created-as-sent'], message }, refusal.exchange);
    }
    const { pet, exchange } = refusal ?? { pet: this.pet, exchange: refusedOrCreated };
    if (exchange.response.status !== 201) throw new Broken({ rule: RULE['created-as-sent'], message: `expected ${stringifyLossless(this.pet)} created with 201, got ${exchange.response.status} ${exchange.response.body.slice(0, 200)}` }, exchange);
    const id = idText((exchange.json as Fields | undefined)?.id ?? null);
    if (id === undefined) throw new Broken({ rule: RULE['created-as-sent'], message: 'expected the created Pet to carry an integer id' }, exchange);
    if (model.created.has(id)) throw new Broken({ rule: RULE['unique-ids'], message: `expected a new id for each creation, got ${id} twice in one sequence` }, exchange);
    const shown = (exchange.json as Fields | undefined)?.status;
    model.created.set(id, { sent: pet, status: typeof shown === 'string' ? shown : undefined });
  }
  toString = (): string => `create ${stringifyLossless(this.pet)}`;
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly statuses: readonly string[],
  ) {}
  check = (model: Readonly<Model>): boolean => model.created.size > 0;
  async run(model: Model, real: Real): Promise<void> {
    const ids = [...model.created.keys()];
    await fetchAsCreated(model, real, ids[this.pick % ids.length]!, this.statuses);
  }
  toString = (): string => `get #${this.pick}`;
}

/**
 * getPet of a pet this sequence created: it must come as sent (GET-1), but for a status another party may have moved
 * it to (another PetStatus), which the model follows and the run says it could not check. Its answer, for a list's
 * verdict on the pet.
 */
async function fetchAsCreated(model: Model, real: Real, id: string, statuses: readonly string[]): Promise<Exchange> {
  const pet = model.created.get(id)!;
  const exchange = await send(real, () => real.client.getPet(id));
  const got = exchange.json as Fields | undefined;
  const shown = got?.status;
  const moved = pet.sent.status !== undefined && typeof shown === 'string' && statuses.includes(shown) && shown !== pet.sent.status;
  const differs = exchange.response.status !== 200 ? ['the status'] : Object.keys(pet.sent).filter((name) => !(moved && name === 'status') && stringifyLossless(got?.[name] ?? null) !== stringifyLossless(pet.sent[name] ?? null));
  if (differs.length > 0) throw new Broken({ rule: RULE['get-as-created'], message: `expected pet ${id} as created (${stringifyLossless(pet.sent)}), got ${exchange.response.status} ${exchange.response.body.slice(0, 200)}` }, exchange);
  if (moved) real.unchecked.push({ rule: RULE['get-as-created'], message: `that pet ${id} keeps the status it was created with: created ${stringifyLossless(pet.sent.status ?? null)}, fetched ${shown}; ${TRANSITIONS}` });
  if (typeof shown === 'string') pet.status = shown;
  return exchange;
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly status: string,
    readonly statuses: readonly string[],
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const exchange = await send(real, () => real.client.listPets({ status: this.status, limit: LIST_LIMIT }));
    const pets = Array.isArray(exchange.json) ? (exchange.json as Fields[]) : [];
    if (exchange.response.status !== 200 || pets.length >= LIST_LIMIT) return;
    const listed = new Set(pets.map((pet) => idText(pet.id ?? null)));
    for (const pet of pets) {
      const created = model.created.get(idText(pet.id ?? null) ?? '');
      if (created !== undefined && typeof pet.status === 'string') created.status = pet.status;
    }
    // Only pets the target showed with this status: the status a pet gets without one is the spec's silence
    // (RES-GAP-3). Left out, a pet is evidence only while getPet after the list still answers that status.
    const missing: string[] = [];
    for (const [id, pet] of [...model.created].filter(([id, pet]) => pet.status === this.status && !listed.has(id))) {
      const after = await fetchAsCreated(model, real, id, this.statuses);
      if (pet.status === this.status) missing.push(id);
      else real.unchecked.push({ rule: RULE['added-is-listed'], message: `that pet ${id}, shown ${this.status} before a list of ${pets.length} filtered by ${this.status} that left it out, is listed: getPet after the list answered ${stringifyLossless((after.json as Fields | undefined)?.status ?? null)}; ${TRANSITIONS}` });
    }
    if (missing.length > 0) throw new Broken({ rule: RULE['added-is-listed'], message: `expected the ${this.status} pets this sequence created (${missing.join(', ')}) in a list of ${pets.length} filtered by ${this.status}, they were missing, and getPet after the list still answers them ${this.status}` }, exchange);
  }
  toString = (): string => `list ${this.status}`;
}

/**
 * Sends one request of the sequence; a contract finding on its answer ends the sequence like any other, but for
 * a rate-limit header's, which says nothing of the sequence (the property judges those of the last answer).
 */
async function send(real: Real, request: () => Promise<Exchange>): Promise<Exchange> {
  const exchange = await request();
  real.last = exchange;
  real.sent++;
  const violation = exchange.violations?.find((found) => !isRateLimitHeaderRule(found.rule));
  if (violation) throw new Broken(violation, exchange);
  return exchange;
}

export function petSequences(newPet: ContractSchema, statuses: readonly string[]): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> {
  return fc.commands(
    [
      (validValue(newPet) as fc.Arbitrary<Fields>).map((pet) => new Create(pet, newPet)),
      fc.nat().map((pick) => new Get(pick, statuses)),
      fc.constantFrom(...statuses).map((status) => new List(status, statuses)),
    ],
    { maxCommands: 8 },
  );
}

/** Runs one sequence against the target; its first finding, if any, with the exchange that showed it. */
export async function runSequence(client: PetStoreClient, commands: Iterable<fc.AsyncCommand<Model, Real>>): Promise<Checked> {
  const real: Real = { client, last: undefined, sent: 0, unchecked: [] };
  try {
    await fc.asyncModelRun(() => ({ model: { created: new Map() }, real }), commands);
  } catch (error) {
    if (error instanceof Broken) return { exchange: error.exchange, problems: [error.problem], requests: real.sent, unchecked: real.unchecked };
    throw error;
  }
  return { exchange: real.last, problems: [], requests: real.sent, unchecked: real.unchecked };
}
