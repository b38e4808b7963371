/**
 * Stateful sequences for the generated project: creations, gets and filtered lists in any order, against a
 * model of what the target must then show. A created pet is returned by getPet as it was sent (GET-1), is in
 * every list filtered by its status that is not full (LIST-7), and no two creations share an id (CREATE-5).
 * Other clients may write at the same time: the model only speaks of the pets this sequence created.
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

interface Model {
  /** Pets this sequence created, by id as text. */
  created: Map<string, Fields>;
}

interface Real {
  client: PetStoreClient;
  last: Exchange | undefined;
  sent: number;
}

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
    model.created.set(id, pet);
  }
  toString = (): string => `create ${stringifyLossless(this.pet)}`;
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => model.created.size > 0;
  async run(model: Model, real: Real): Promise<void> {
    const ids = [...model.created.keys()];
    const id = ids[this.pick % ids.length]!;
    const sent = model.created.get(id)!;
    const exchange = await send(real, () => real.client.getPet(id));
    const got = exchange.json as Fields | undefined;
    const differs = exchange.response.status !== 200 ? ['the status'] : Object.keys(sent).filter((name) => stringifyLossless(got?.[name] ?? null) !== stringifyLossless(sent[name] ?? null));
    if (differs.length > 0) throw new Broken({ rule: RULE['get-as-created'], message: `expected pet ${id} as created (${stringifyLossless(sent)}), got ${exchange.response.status} ${exchange.response.body.slice(0, 200)}` }, exchange);
  }
  toString = (): string => `get #${this.pick}`;
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(readonly status: string) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const exchange = await send(real, () => real.client.listPets({ status: this.status, limit: LIST_LIMIT }));
    const pets = Array.isArray(exchange.json) ? (exchange.json as Fields[]) : [];
    if (exchange.response.status !== 200 || pets.length >= LIST_LIMIT) return;
    const listed = new Set(pets.map((pet) => idText(pet.id ?? null)));
    // Only pets created with this status: the status a pet gets without one is the spec's silence (RES-GAP-3).
    const missing = [...model.created].filter(([id, pet]) => pet.status === this.status && !listed.has(id)).map(([id]) => id);
    if (missing.length > 0) throw new Broken({ rule: RULE['added-is-listed'], message: `expected the ${this.status} pets this sequence created (${missing.join(', ')}) in a list of ${pets.length} filtered by ${this.status}, they were missing` }, exchange);
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
      fc.nat().map((pick) => new Get(pick)),
      fc.constantFrom(...statuses).map((status) => new List(status)),
    ],
    { maxCommands: 8 },
  );
}

/** Runs one sequence against the target; its first finding, if any, with the exchange that showed it. */
export async function runSequence(client: PetStoreClient, commands: Iterable<fc.AsyncCommand<Model, Real>>): Promise<Checked> {
  const real: Real = { client, last: undefined, sent: 0 };
  try {
    await fc.asyncModelRun(() => ({ model: { created: new Map() }, real }), commands);
  } catch (error) {
    if (error instanceof Broken) return { exchange: error.exchange, problems: [error.problem], requests: real.sent };
    throw error;
  }
  return { exchange: real.last, problems: [], requests: real.sent };
}
