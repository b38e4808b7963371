/**
 * Generated requests (project `generated`): from fixtures/openapi.yaml, fast-check draws valid and broken
 * bodies, queries and ids for every operation, and each answer is checked by the same validating client as
 * every other test. PETSTORE_GENERATED_RUNS sets the requests per property, PETSTORE_GENERATED_SEED replays
 * a run; a failure is shrunk to the smallest request that still shows it.
 */
import fc from 'fast-check';
import { requestShape, resolveSchema, type ContractParameter } from '../../lib/contract.ts';
import { idText, stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import { PAGE_SIZE } from '../../lib/page-size.ts';
import type { PetStoreClient } from '../support/client.ts';
import type { Exchange } from '../support/exchange.ts';
import { bodyBreaches, type Breach, type GeneratedBody } from '../support/generated/invalid-bodies.ts';
import { createdInKnownCategory, KNOWN_CATEGORY } from '../support/generated/known-category.ts';
import { petSequences, runSequence } from '../support/generated/pet-model.ts';
import { checkProperty, type Checked, type Problem } from '../support/generated/property.ts';
import { unusualKinds, validQuery } from '../support/generated/query-values.ts';
import { INT32_MAX, INT64_MAX, validValue } from '../support/generated/valid-values.ts';
import type { RuleJudge } from '../support/judge.ts';
import { CREATES, rule, test } from '../support/test.ts';

const createShape = requestShape('createPet');
const listShape = requestShape('listPets');
const getShape = requestShape('getPet');
const newPet = createShape.body!;

type Fields = Record<string, LosslessValue>;

const answer = (exchange: Exchange): string => `${exchange.response.status} ${exchange.response.body.slice(0, 200)}`;
const problem = (rule: string, message: string): Problem[] => [{ rule, message }];

async function run<T>(check: RuleJudge, api: PetStoreClient, path: string, values: fc.Arbitrary<T>, send: (client: PetStoreClient, value: T) => Promise<Checked>, settings: { seed: number; runs: number }): Promise<void> {
  const client = api.collecting();
  const sent = await checkProperty(check, client, path, values, (value) => send(client, value), settings);
  check.observe(`${sent} generated requests: ${path} (seed ${settings.seed})`);
}

test.describe('createPet', () => {
  test(...rule('CREATE-1', 'generated valid NewPets (any int64 categoryId, any Unicode name) are created as sent', { tag: [CREATES], also: ['RES-GAP-1', 'RES-GAP-2'] }), async ({ api, check, target }) => {
    const names = new Set<string>();
    const wideCategories = new Set<string>();
    const refusedCategories = new Set<string>();
    await run(check, api, 'createPet with a valid NewPet', validValue(newPet) as fc.Arbitrary<Fields>, async (client, pet) => {
      const create = (fields: Fields): Promise<Exchange> => client.createPetRaw({ body: stringifyLossless(fields), contentType: 'application/json' });
      const exchange = await create(pet);
      const category = idText(pet.categoryId ?? null);
      if (await createdInKnownCategory(pet, exchange, create)) {
        refusedCategories.add(category ?? 'none');
        return { exchange, problems: [], requests: 2 };
      }
      if (exchange.response.status !== 201) return { exchange, problems: problem('CREATE-1', `expected a valid NewPet ${stringifyLossless(pet)} answered 201, got ${answer(exchange)}`) };
      const created = exchange.json as Fields | undefined;
      const differs = Object.keys(pet).filter((name) => stringifyLossless(created?.[name] ?? null) !== stringifyLossless(pet[name] ?? null));
      if (differs.length > 0) return { exchange, problems: problem('CREATE-1', `expected the created Pet to carry ${differs.join(', ')} as sent in ${stringifyLossless(pet)}, got ${answer(exchange)}`) };
      const length = String(pet.name).length;
      if (length === 0 || length > 30) names.add(`a name of ${length} characters`);
      if (category !== undefined && BigInt(category) > INT32_MAX) wideCategories.add(category);
      return { exchange, problems: [] };
    }, target.settings.generated);
    if (wideCategories.size > 0) check.observe(`categoryIds above 2^31 - 1 were created as sent, e.g. ${[...wideCategories].slice(0, 3).join(', ')} (the service does not say which categories exist)`, 'RES-GAP-1');
    if (refusedCategories.size > 0) check.observe(`categoryIds refused with 400 while the same pets in category ${KNOWN_CATEGORY} were created, e.g. ${[...refusedCategories].slice(0, 3).join(', ')} (the service decides which categories exist)`, 'RES-GAP-1');
    if (names.size > 0) check.observe(`created as sent: ${[...names].slice(0, 3).join('; ')}`, 'RES-GAP-2');
  });

  for (const breach of bodyBreaches(newPet)) {
    const words = {
      refused: `generated bodies with ${breach.name} are answered 400 with an Error`,
      unusual: `generated bodies with ${breach.name} get a documented answer, never a 5xx`,
      beyond: `generated bodies with ${breach.name} never get a 5xx`,
    }[breach.expect];
    test(...rule(breach.rule, words, { tag: breach.expect === 'refused' ? [] : [CREATES] }), async ({ api, check, target }) => {
      const statuses = new Map<number, string>();
      await run(check, api, `createPet with ${breach.name}`, breach.body, async (client, body) => {
        const checked = await sendBreach(client, breach, body);
        if (checked.exchange) statuses.set(checked.exchange.response.status, body.why);
        return checked;
      }, target.settings.generated);
      if (breach.expect !== 'refused') check.observe(`${breach.name}: answered ${[...statuses].map(([status, why]) => `${status} (e.g. ${why.slice(0, 60)})`).join(', ')}`, breach.gap ?? breach.rule);
    });
  }
});

async function sendBreach(client: PetStoreClient, breach: Breach, body: GeneratedBody): Promise<Checked> {
  const exchange = await client.createPetRaw({ body: body.text, ...(body.contentType === null ? {} : { contentType: body.contentType ?? 'application/json' }) });
  const status = exchange.response.status;
  if (breach.expect === 'beyond') {
    // HTTP's own answers (413, 415) are fine here, though the spec does not list them: only a server error is wrong.
    exchange.violations = exchange.violations?.filter((violation) => violation.rule !== 'RESP-1' || status >= 500);
    return { exchange, problems: [] };
  }
  if (breach.expect === 'unusual' || status === 400) return { exchange, problems: [] };
  return { exchange, problems: problem(breach.rule, `expected a body with ${body.why} answered 400 with an Error, got ${answer(exchange)}: ${body.text.slice(0, 200)}`) };
}

test.describe('listPets', () => {
  test(...rule('LIST-3', 'generated valid list queries are answered 200 with at most limit animals, each of the status asked for', { also: ['LIST-1', 'LIST-2', 'LIST-5'] }), async ({ api, check, target }) => {
    await run(check, api, 'listPets with a valid query', validQuery(listShape.parameters), async (client, query) => {
      const exchange = await client.listPets(query);
      if (exchange.response.status !== 200) return { exchange, problems: problem('LIST-5', `expected ${JSON.stringify(query)} answered 200, got ${answer(exchange)}`) };
      const pets = Array.isArray(exchange.json) ? exchange.json : [];
      const limit = query.limit === undefined ? PAGE_SIZE.default : Number(query.limit);
      const problems: Problem[] = [];
      if (pets.length > limit) problems.push({ rule: query.limit === undefined ? 'LIST-2' : 'LIST-3', message: `expected at most ${limit} animals for ${JSON.stringify(query)}, got ${pets.length}` });
      const other = query.status === undefined ? undefined : pets.find((pet) => (pet as Fields).status !== query.status);
      if (other !== undefined) problems.push({ rule: 'LIST-1', message: `expected only ${query.status} animals for ${JSON.stringify(query)}, got ${stringifyLossless(other)}` });
      return { exchange, problems };
    }, target.settings.generated);
  });

  for (const parameter of listShape.parameters.filter((candidate) => candidate.in === 'query')) {
    for (const [kind, values] of unusualKinds(parameter.schema)) {
      test(...rule('RESP-1', `generated list queries with ${parameter.name} as ${kind} get a documented answer, never a 5xx`, { also: [gapOf(parameter)] }), async ({ api, check, target }) => {
        const statuses = new Map<number, string>();
        const queries = fc.tuple(validQuery(listShape.parameters), values).map(([query, text]) => ({ ...query, [parameter.name]: text }));
        await run(check, api, `listPets with ${parameter.name} as ${kind}`, queries, async (client, query) => {
          const exchange = await client.listPets(query);
          statuses.set(exchange.response.status, query[parameter.name] ?? '');
          return { exchange, problems: [] };
        }, target.settings.generated);
        check.observe(`${parameter.name} as ${kind}: answered ${[...statuses].map(([status, example]) => `${status} (e.g. ${JSON.stringify(example)})`).join(', ')}`, gapOf(parameter));
      });
    }
  }
});

/** Where the spec is silent about a parameter written wrongly. */
function gapOf(parameter: ContractParameter): string {
  return parameter.name === 'limit' ? 'LIST-GAP-2' : 'LIST-GAP-4';
}

test.describe('getPet', () => {
  const petId = getShape.parameters.find((parameter) => parameter.in === 'path')!;

  test(...rule('GET-3', 'generated int64 ids are answered 404, or 200 with that very pet', { also: ['GET-2'] }), async ({ api, check, target }) => {
    const ids = fc.oneof(fc.bigInt({ min: 1n, max: INT64_MAX }), fc.constantFrom(INT64_MAX, 2n ** 53n + 1n, 2n ** 31n)).map(String);
    await run(check, api, 'getPet with an int64 id', ids, async (client, id) => {
      const exchange = await client.getPet(id);
      const status = exchange.response.status;
      if (status === 200) {
        const got = idText((exchange.json as Fields | undefined)?.id ?? null);
        return { exchange, problems: got === id ? [] : problem('GET-3', `expected /pets/${id} answered with pet ${id}, got pet ${got ?? 'without an id'}`) };
      }
      return { exchange, problems: status === 404 ? [] : problem('GET-2', `expected /pets/${id} answered 404 (no such pet) or 200, got ${answer(exchange)}`) };
    }, target.settings.generated);
  });

  for (const [kind, values] of unusualKinds(petId.schema)) {
    test(...rule('RESP-1', `generated petIds as ${kind} get a documented answer, never a 5xx`), async ({ api, check, target }) => {
      await run(check, api, `getPet with a petId as ${kind}`, values.filter((text) => text.length > 0), async (client, id) => ({ exchange: await client.getPet(id), problems: [] }), target.settings.generated);
    });
  }
});

test.describe('sequences', () => {
  test(...rule('LIST-7', 'generated sequences of creations, gets and filtered lists show each created pet as it was sent', { tag: [CREATES], also: ['GET-1', 'CREATE-5'] }), async ({ api, check, target }) => {
    const statuses = resolveSchema(newPet.properties!.status!).enum ?? [];
    const { seed, runs } = target.settings.generated;
    // A sequence is up to eight requests: a quarter of the runs keeps the project's cost near the other properties'.
    await run(check, api, 'sequences of createPet, getPet and listPets', petSequences(newPet, statuses), runSequence, { seed, runs: Math.max(2, Math.round(runs / 4)) });
  });
});
