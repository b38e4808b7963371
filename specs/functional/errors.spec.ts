/**
 * What every response owes the contract: a documented status, a JSON body of the documented shape, and an
 * Error on every error. The shared validating client checks this on every response of every test; these
 * tests make sure each kind of answer (200, 201, 400, 401, 404) is seen at least once.
 */
import { schemaProblems } from '../../lib/contract.ts';
import { operation } from '../../lib/contract.ts';
import type { PetStoreClient } from '../support/client.ts';
import { TRUNCATED_BODY } from '../support/exact-bodies.ts';
import type { Exchange } from '../support/exchange.ts';
import { answer, existingPet, idOf, newPet, objectIn } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

const MISSING_PET = String(2n ** 63n - 3n);
/** Enough requests to each operation that a target dropping one in a few is met (ten list requests in all). */
const MORE_ROUNDS = 8;

/** One answer of each kind an operation documents, without creating anything in a read-only run. */
async function answersOfEveryKind(api: PetStoreClient, anonymous: PetStoreClient, readOnly: boolean): Promise<Exchange[]> {
  const answers = [
    await api.listPets({ limit: 3 }),
    await api.createPet({ categoryId: 1 }),
    await api.getPet(MISSING_PET),
    await api.listOrders(),
    await anonymous.listPets(),
    await anonymous.getPet('1'),
  ];
  if (!readOnly) answers.push(await api.createPet(newPet()));
  const id = idOf(await existingPet(api, readOnly));
  if (id !== undefined) answers.push(await api.getPet(id));
  return answers;
}

/** The errors every operation can give: 400 (createPet), 401 (each operation) and 404 (getPet). */
async function errorAnswers(api: PetStoreClient, anonymous: PetStoreClient): Promise<Exchange[]> {
  return [
    await api.createPet({ name: 'conformance' }),
    await api.createPetRaw({ body: TRUNCATED_BODY, contentType: 'application/json' }),
    await api.getPet(MISSING_PET),
    await anonymous.listPets(),
    await anonymous.createPet(newPet()),
    await anonymous.getPet('1'),
    await anonymous.listOrders(),
  ];
}

test(...rule('ERR-1', 'every 400, 401 and 404 response carries an Error body as application/json'), async ({ api, anonymous, check }) => {
  for (const exchange of await errorAnswers(api, anonymous)) {
    const { status, headers } = exchange.response;
    if (![400, 401, 404].includes(status)) continue;
    const problems = exchange.json === undefined ? ['the body is not JSON'] : schemaProblems('Error', exchange.json);
    check.expect(problems.length === 0, `expected an Error body on ${exchange.operation} ${status}: ${problems.join('; ')}`, { evidence: exchange });
    check.expect(/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? ''), `expected ${status} as application/json, got ${headers['content-type'] ?? 'no Content-Type'}`, { evidence: exchange });
  }
});

test(...rule('ERR-2', 'the status field of an Error equals the HTTP status of the response'), async ({ api, anonymous, check }) => {
  for (const exchange of await errorAnswers(api, anonymous)) {
    const errorStatus = objectIn(exchange)?.status;
    if (errorStatus === undefined) continue;
    check.expect(errorStatus === exchange.response.status, `expected Error.status ${exchange.response.status}, got ${String(errorStatus)}`, { evidence: exchange });
  }
});

test(...rule('ERR-GAP-2', "the values of an Error's code"), async ({ api, anonymous, check }) => {
  const codes = new Map<string, Set<number>>();
  for (const exchange of await errorAnswers(api, anonymous)) {
    const code = objectIn(exchange)?.code;
    if (typeof code === 'string') codes.set(code, (codes.get(code) ?? new Set()).add(exchange.response.status));
  }
  check.observe(`codes seen: ${[...codes].map(([code, statuses]) => `"${code}" (${[...statuses].join(', ')})`).join(', ') || 'none'}`);
  check.gist(codes.size > 0 ? [...codes.keys()].sort().map((code) => code.slice(0, 30)).join(', ') : 'no code');
});

test(...rule('SVC-1', 'every response that has a body declares Content-Type application/json and its body is JSON'), async ({ api, anonymous, check, target }) => {
  for (const exchange of await answersOfEveryKind(api, anonymous, target.settings.readOnly)) {
    const { body, headers, status } = exchange.response;
    if (body.trim() === '') continue;
    check.expect(/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? ''), `expected Content-Type application/json on ${exchange.operation} ${status}, got ${headers['content-type'] ?? 'none'}`, { evidence: exchange });
    check.expect(exchange.json !== undefined, `expected a JSON body on ${exchange.operation} ${status}, got ${answer(exchange)}`, { evidence: exchange });
  }
});

test(...rule('RESP-1', 'every response status is one the spec documents for its operation'), async ({ api, anonymous, check, target }) => {
  for (const exchange of await answersOfEveryKind(api, anonymous, target.settings.readOnly)) {
    const documented = operation(exchange.operation).statuses;
    check.expect(documented.has(exchange.response.status), `expected one of ${[...documented].join(', ')} for ${exchange.operation}, got ${answer(exchange)}`, { evidence: exchange });
  }
});

/**
 * The client judges RESP-3 on every request of every test (client.ts): one that gets no answer fails it and is
 * sent again. Here each operation is asked several times in a row, so a target that drops some of its requests
 * is met even in a run that leaves the other tests out.
 */
test(...rule('RESP-3', 'every request gets an answer within the bounded wait, its connection not closed without one'), async ({ api, anonymous, target }) => {
  await answersOfEveryKind(api, anonymous, target.settings.readOnly);
  // Again and again, creating nothing more: a store the suite certifies often should not fill up with its probes.
  for (let round = 0; round < MORE_ROUNDS; round++) {
    await api.listPets({ limit: 3 });
    await api.getPet(MISSING_PET);
    await api.listOrders();
  }
});

test(...rule('RESP-2', 'response bodies have their documented shape: Pet, Pets, Error'), async ({ api, anonymous, check, target }) => {
  const seen = new Set<string>();
  for (const exchange of await answersOfEveryKind(api, anonymous, target.settings.readOnly)) {
    const { status } = exchange.response;
    const schema = status === 200 && exchange.operation === 'listPets' ? 'Pets' : status === 200 || status === 201 ? (exchange.operation === 'listOrders' ? undefined : 'Pet') : 'Error';
    if (!schema) continue;
    seen.add(schema);
    const problems = exchange.json === undefined ? ['the body is not JSON'] : schemaProblems(schema, exchange.json);
    check.expect(problems.length === 0, `expected a valid ${schema} for ${exchange.operation} ${status}: ${problems.join('; ')}`, { evidence: exchange });
  }
  check.expect(seen.has('Pets') && seen.has('Error'), `expected to see a list and an error, saw ${[...seen].join(', ')}`);
});
