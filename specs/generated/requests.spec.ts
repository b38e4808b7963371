/**
 * Generated requests (project `generated`): from fixtures/openapi.yaml, bodies, queries, ids and tokens for every
 * operation, each answer checked by the same validating client as every other test and judged by the kind of
 * request it is (lib/contract.ts): within the contract by its rule, outside it by "a client error with an
 * Error, or a lenient reading", at a gap by "accepted exactly, or refused with 400 and an Error".
 *
 * Every run first sends the values of every input class (support/generated/input-classes.ts), then
 * PETSTORE_GENERATED_RUNS seeded random requests per property: from the suite version's fixed seed, so one
 * target gets the same verdict on every run, or from a fresh one with PETSTORE_GENERATED_EXPLORE=1.
 * PETSTORE_GENERATED_SEED replays a run; a failure is shrunk to the smallest request that still shows it.
 */
import { RULE } from '../../lib/checks/registry.ts';
import fc from 'fast-check';
import { requestShape, resolveSchema, type ContractParameter } from '../../lib/contract.ts';
import { keyVariable } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import type { PetStoreClient } from '../support/client.ts';
import type { Exchange } from '../support/exchange.ts';
import { refusalAtGap } from '../support/generated/gap-refusal.ts';
import {
  bearerTokenClasses,
  enumClasses,
  enumTextClasses,
  integerClasses,
  integerTextClasses,
  jsonInteger,
  repeatedParameterClasses,
  STRING_CLASSES,
  tagged,
  type InputClass,
  type Tagged,
} from '../support/generated/input-classes.ts';
import { bodyBreaches, type Breach, type GeneratedBody } from '../support/generated/invalid-bodies.ts';
import { petSequences, runSequence } from '../support/generated/pet-model.ts';
import { checkProperty, SHRINKING_CLASS, type Checked, type Problem, type PropertyRun } from '../support/generated/property.ts';
import { repeatedQuery, unusualKinds, validQuery, type Query } from '../support/generated/query-values.ts';
import { INT64_MAX, validValue } from '../support/generated/valid-values.ts';
import type { RuleJudge } from '../support/judge.ts';
import { listSuccessProblems, petIdSuccessProblem } from '../support/lenient-readings.ts';
import { CREATES, rule, test } from '../support/test.ts';

const createShape = requestShape('createPet');
const listShape = requestShape('listPets');
const getShape = requestShape('getPet');
const newPet = createShape.body!;
const PET_STATUSES = resolveSchema(newPet.properties!.status!).enum ?? [];

type Fields = Record<string, LosslessValue>;

const answer = (exchange: Exchange): string => `${exchange.response.status} ${exchange.response.body.slice(0, 200)}`;
const problem = (rule: string, message: string): Problem[] => [{ rule, message }];
const SEEDED = 'seeded random';
const KIND_WORDS = { within: 'within the contract', outside: 'outside the contract', gap: 'at a gap' } as const;

/** What a property sent and got, for the report's table of generated properties. */
class Tally {
  private readonly classes = new Map<string, number>();
  private readonly answers = new Map<string, number>();
  private readonly kinds = new Set<string>();

  note(inputClass: string, exchange: Exchange | undefined): void {
    for (const name of inputClass.split('; ')) this.classes.set(name, (this.classes.get(name) ?? 0) + 1);
    if (!exchange) return;
    this.kinds.add(KIND_WORDS[exchange.kind.kind]);
    const code = exchange.response.status >= 400 ? (exchange.json as Fields | undefined)?.code : undefined;
    const key = `${exchange.response.status}${typeof code === 'string' ? ` ${code.slice(0, 40)}` : ''}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  answersText(): string {
    return [...this.answers].map(([key, count]) => `${key} ×${count}`).join(', ');
  }

  summary(check: RuleJudge, property: string, requests: number, seed: number): void {
    check.generated({ property, kind: [...this.kinds].sort().join(' and ') || 'none sent', requests, classes: Object.fromEntries(this.classes), answers: Object.fromEntries(this.answers), seed });
  }
}

async function run<T>(
  check: RuleJudge,
  api: PetStoreClient,
  path: string,
  values: fc.Arbitrary<Tagged<T>>,
  examples: ReadonlyArray<Tagged<T>>,
  send: (client: PetStoreClient, value: T) => Promise<Checked>,
  settings: PropertyRun,
): Promise<Tally> {
  const client = api.collecting();
  const tally = new Tally();
  const sent = await checkProperty(
    check,
    client,
    path,
    values,
    async ({ value, inputClass }, shrinking) => {
      const checked = await send(client, value);
      tally.note(shrinking ? SHRINKING_CLASS : inputClass, checked.exchange);
      return checked;
    },
    settings,
    examples,
  );
  check.observe(`${sent} generated requests: ${path} (seed ${settings.seed}): answered ${tally.answersText()}`);
  tally.summary(check, path, sent, settings.seed);
  return tally;
}

const seeded = <T>(values: fc.Arbitrary<T>): fc.Arbitrary<Tagged<T>> => values.map((value) => ({ value, inputClass: SEEDED }));

/** Rows that take every class of every column once: row i takes each column's value i (modulo its length). */
function zip(columns: Record<string, ReadonlyArray<Tagged<LosslessValue | undefined>>>): Array<Tagged<Fields>> {
  const entries = Object.entries(columns);
  const rows = Math.max(...entries.map(([, values]) => values.length));
  return Array.from({ length: rows }, (_, row) => {
    const cells = entries.map(([name, values]) => [name, values[row % values.length]!] as const);
    const value = Object.fromEntries(cells.filter(([, cell]) => cell.value !== undefined).map(([name, cell]) => [name, cell.value!]));
    return { value, inputClass: cells.map(([name, cell]) => `${name}: ${cell.inputClass}`).join('; ') };
  });
}

const absent = { value: undefined, inputClass: 'absent' };

test.describe('createPet', () => {
  const examples = zip({
    name: tagged(STRING_CLASSES),
    categoryId: tagged(integerClasses(newPet.properties!.categoryId!)).map(({ value, inputClass }) => ({ value: jsonInteger(value), inputClass })),
    status: [...tagged(enumClasses(PET_STATUSES)), absent],
  });

  test(...rule('CREATE-1', 'generated valid NewPets are created as sent, or refused with 400 for a value at a gap', { tag: [CREATES], also: ['RES-GAP-1', 'RES-GAP-2'] }), async ({ api, check, target }) => {
    const accepted = new Map<string, Set<string>>();
    const refused = new Map<string, Set<string>>();
    const note = (into: Map<string, Set<string>>, gap: string, what: string): void => void into.set(gap, (into.get(gap) ?? new Set()).add(what));
    await run(check, api, 'createPet with a valid NewPet', seeded(validValue(newPet) as fc.Arbitrary<Fields>), examples, async (client, pet) => {
      const create = (fields: Fields): Promise<Exchange> => client.createPetRaw({ body: stringifyLossless(fields), contentType: 'application/json' });
      const exchange = await create(pet);
      const refusal = await refusalAtGap(newPet, pet, exchange, create);
      if (refusal && 'ordinary' in refusal) {
        const message = `expected ${stringifyLossless(pet)} created, or refused for its value at a gap (${exchange.kind.why}); it was refused (${answer(exchange)}), and so was the same pet with ordinary values ${stringifyLossless(refusal.ordinary)}: ${answer(refusal.exchange)}`;
        return { exchange: refusal.exchange, problems: problem(RULE['created-as-sent'], message) };
      }
      if (refusal) {
        const field = refusal.fields.at(-1)!;
        note(refused, field.gap, `${field.name} ${shown(pet[field.name])}`);
        return { exchange, problems: [], requests: 1 + refusal.fields.length };
      }
      if (exchange.response.status !== 201) return { exchange, problems: problem(RULE['created-as-sent'], `expected a valid NewPet ${stringifyLossless(pet)} answered 201, got ${answer(exchange)}`) };
      const created = exchange.json as Fields | undefined;
      const differs = Object.keys(pet).filter((name) => stringifyLossless(created?.[name] ?? null) !== stringifyLossless(pet[name] ?? null));
      if (differs.length > 0) return { exchange, problems: problem(RULE['created-as-sent'], `expected the created Pet to carry ${differs.join(', ')} as sent in ${stringifyLossless(pet)}, got ${answer(exchange)}`) };
      if (exchange.kind.kind === 'gap') note(accepted, exchange.kind.gap!, exchange.kind.why ?? '');
      return { exchange, problems: [] };
    }, target.settings.generated);
    for (const gap of [RULE['category-id-range'], RULE['name-limits']]) {
      const refusedHere = [...(refused.get(gap) ?? [])];
      const acceptedHere = [...(accepted.get(gap) ?? [])];
      if (refusedHere.length > 0) check.observe(`refused with 400 while the same pet with ordinary values was created (the service's choice): ${refusedHere.slice(0, 8).join('; ')}`, gap);
      if (acceptedHere.length > 0) check.observe(`created exactly as sent: ${acceptedHere.slice(0, 8).join('; ')}`, gap);
    }
  });

  for (const breach of bodyBreaches(newPet)) {
    const words = breach.expect === 'refused' ? `generated bodies with ${breach.name} are answered 400 with an Error` : `generated bodies with ${breach.name} (outside the contract) get a client error with an Error, or are read leniently`;
    test(...rule(breach.rule, words, { tag: breach.expect === 'refused' ? [] : [CREATES], also: breach.gap ? [breach.gap, RULE['created-as-sent'], RULE['invalid-value-refused']] : [] }), async ({ api, check, target }) => {
      const examples = (breach.examples ?? []).map((value) => ({ value, inputClass: value.why }));
      const tally = await run(check, api, `createPet with ${breach.name}`, seeded(breach.body), examples, (client, body) => sendBreach(client, breach, body), target.settings.generated);
      if (breach.gap) check.observe(`${breach.name}: answered ${tally.answersText()}`, breach.gap);
    });
  }
});

async function sendBreach(client: PetStoreClient, breach: Breach, body: GeneratedBody): Promise<Checked> {
  const exchange = await client.createPetRaw({ body: body.text, ...(body.contentType === null ? {} : { contentType: body.contentType ?? 'application/json' }) });
  const status = exchange.response.status;
  if (breach.expect === 'outside') {
    if (status !== 201) return { exchange, problems: [] };
    const created = exchange.json as Fields | undefined;
    const readings = body.readings ?? [];
    const fits = readings.some((reading) => Object.keys(reading).every((name) => stringifyLossless(created?.[name] ?? null) === stringifyLossless(reading[name] ?? null)));
    if (fits) return { exchange, problems: [] };
    return readings.length === 0
      ? { exchange, problems: problem(RULE['invalid-value-refused'], `expected a client error for a body with ${body.why}, which no lenient reading makes a NewPet, got ${answer(exchange)}`) }
      : { exchange, problems: problem(RULE['created-as-sent'], `expected a body with ${body.why} refused with a client error, or created as a lenient reading means (${readings.map((reading) => stringifyLossless(reading).slice(0, 80)).join(' or ')}), got ${answer(exchange)}`) };
  }
  if (status === 400) return { exchange, problems: [] };
  return { exchange, problems: problem(breach.rule, `expected a body with ${body.why} answered 400 with an Error, got ${answer(exchange)}: ${body.text.slice(0, 200)}`) };
}

function shown(value: LosslessValue | undefined): string {
  if (typeof value === 'string') return value.length > 30 ? `of ${value.length} characters` : JSON.stringify(value);
  return String(value);
}

test.describe('listPets', () => {
  const limit = listShape.parameters.find((parameter) => parameter.name === 'limit')!;
  const validExamples = zip({
    limit: [absent, ...tagged<string>([{ name: 'minimum', values: ['1'] }, { name: 'maximum', values: ['100'] }, { name: 'within', values: ['7'] }])],
    status: [absent, ...tagged(enumClasses(PET_STATUSES))],
  }) as Array<Tagged<Query>>;

  test(...rule('LIST-3', 'generated valid list queries are answered 200 with at most limit animals, each of the status asked for', { also: ['LIST-1', 'LIST-2', 'LIST-5'] }), async ({ api, check, target }) => {
    await run(check, api, 'listPets with a valid query', seeded(validQuery(listShape.parameters)), validExamples, async (client, query) => {
      const exchange = await client.listPets(query);
      if (exchange.response.status !== 200) return { exchange, problems: problem(RULE['list-plain-array'], `expected ${JSON.stringify(query)} answered 200, got ${answer(exchange)}`) };
      return { exchange, problems: listSuccessProblems(query, exchange) };
    }, target.settings.generated);
  });

  test(...rule('RESP-1', 'generated list queries with a parameter given twice get a client error with an Error, or are read leniently', { also: ['LIST-GAP-2', 'LIST-GAP-4', 'LIST-1', 'LIST-3'] }), async ({ api, check, target }) => {
    const tally = await run(check, api, 'listPets with a parameter given twice', seeded(repeatedQuery(listShape.parameters)), tagged(repeatedParameterClasses(PET_STATUSES)), async (client, query) => {
      const exchange = await client.listPets(query);
      return { exchange, problems: listSuccessProblems(query, exchange) };
    }, target.settings.generated);
    check.observe(`a list parameter given twice: answered ${tally.answersText()}`, RULE['odd-limit']);
    check.observe(`a list parameter given twice: answered ${tally.answersText()}`, RULE['odd-status-filter']);
  });

  for (const parameter of listShape.parameters.filter((candidate) => candidate.in === 'query')) {
    const gap = parameter['x-outside-contract'] ?? RULE['documented-status'];
    const schema = resolveSchema(parameter.schema);
    const classes: Array<InputClass<string>> = schema.enum ? enumTextClasses(schema.enum) : integerTextClasses(parameter.schema);
    test(...rule('RESP-1', `generated list queries with ${parameter.name} outside its schema get a client error with an Error, or are read leniently`, { also: [gap, parameter === limit ? 'LIST-4' : 'LIST-1'] }), async ({ api, check, target }) => {
      const examples = tagged(classes).map(({ value, inputClass }) => ({ value: { [parameter.name]: value }, inputClass: `${parameter.name}: ${inputClass}` }));
      const random = fc.tuple(validQuery(listShape.parameters), fc.oneof(...unusualKinds(parameter.schema).map(([, values]) => values))).map(([query, text]) => ({ ...query, [parameter.name]: text }));
      const tally = await run(check, api, `listPets with ${parameter.name} outside its schema`, seeded(random), examples, async (client, query) => {
        const exchange = await client.listPets(query);
        return { exchange, problems: listSuccessProblems(query, exchange) };
      }, target.settings.generated);
      check.observe(`${parameter.name} outside its schema: answered ${tally.answersText()}`, gap);
    });
  }
});

test.describe('getPet', () => {
  const petId: ContractParameter = getShape.parameters.find((parameter) => parameter.in === 'path')!;
  const gap = petId['x-outside-contract'] ?? RULE['documented-status'];

  test(...rule('GET-3', 'generated int64 ids are answered 404, or 200 with that very pet', { also: ['GET-2'] }), async ({ api, check, target }) => {
    const examples = tagged(integerClasses(petId.schema)).map(({ value, inputClass }) => ({ value: String(value), inputClass: `petId: ${inputClass}` }));
    await run(check, api, 'getPet with an int64 id', seeded(fc.bigInt({ min: 1n, max: INT64_MAX }).map(String)), examples, async (client, id) => {
      const exchange = await client.getPet(id);
      const status = exchange.response.status;
      if (status === 200) {
        const got = idText((exchange.json as Fields | undefined)?.id ?? null);
        return { exchange, problems: got === id ? [] : problem(RULE['large-id-exact'], `expected /pets/${id} answered with pet ${id}, got pet ${got ?? 'without an id'}`) };
      }
      return { exchange, problems: status === 404 ? [] : problem(RULE['unknown-id-404'], `expected /pets/${id} answered 404 (no such pet) or 200, got ${answer(exchange)}`) };
    }, target.settings.generated);
  });

  test(...rule('RESP-1', 'generated petIds that are not int64 get a client error with an Error, or the pet a lenient reading names', { also: [gap, 'GET-3'] }), async ({ api, check, target }) => {
    const examples = tagged(integerTextClasses(petId.schema)).map(({ value, inputClass }) => ({ value, inputClass: `petId: ${inputClass}` }));
    const random = fc.oneof(...unusualKinds(petId.schema).map(([, values]) => values)).filter((text) => text.length > 0);
    const tally = await run(check, api, 'getPet with a petId that is not an int64', seeded(random), examples, async (client, id) => {
      const exchange = await client.getPet(id);
      const wrong = petIdSuccessProblem(id, exchange);
      return { exchange, problems: wrong ? [wrong] : [] };
    }, target.settings.generated);
    check.observe(`petIds that are not int64: answered ${tally.answersText()}`, gap);
  });
});

test.describe('authentication', () => {
  // Sent by the client without a key: these tokens spend no configured key, a refusal of them (by address) marks
  // none spent, and they wait for no measurement that holds the functional key alone.
  test(...rule('AUTH-2', 'generated bearer tokens that are no key of the service are answered 401'), async ({ anonymous, check, target }) => {
    const key = target.roles.functional?.key;
    test.skip(key === undefined, `set a key in ${PLAN_IDS.map(keyVariable).join(', ')} (any plan) to run this`);
    const known = new Set(Object.values(target.keys).flat());
    const examples = tagged(bearerTokenClasses(key!)).filter(({ value }) => !known.has(value)).map(({ value, inputClass }) => ({ value, inputClass: `token: ${inputClass}` }));
    const random = fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,60}$/).filter((token) => !known.has(token));
    await run(check, anonymous, 'listPets with a bearer token that is no key', seeded(random), examples, async (client, token) => {
      const exchange = await client.withAuthorization(`Bearer ${token}`).listPets();
      return { exchange, problems: exchange.response.status === 401 ? [] : problem(RULE['unknown-key-refused'], `expected "Bearer ${token.slice(0, 60)}" answered 401, got ${answer(exchange)}`) };
    }, target.settings.generated);
  });
});

test.describe('sequences', () => {
  test(...rule('LIST-7', 'generated sequences of creations, gets and filtered lists show each created pet as it was sent', { tag: [CREATES], also: ['GET-1', 'CREATE-5'] }), async ({ api, check, target }) => {
    const { seed, runs } = target.settings.generated;
    // A sequence is up to eight requests: a quarter of the runs keeps the project's cost near the other properties'.
    await run(check, api, 'sequences of createPet, getPet and listPets', seeded(petSequences(newPet, PET_STATUSES)), [], runSequence, { seed, runs: Math.max(2, Math.round(runs / 4)) });
  });
});
