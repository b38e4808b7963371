/** POST /pets (createPet): what a valid NewPet gets, and the 400 every bad body gets. */
import { RULE } from '../../lib/checks/registry.ts';
import { schemaProblems } from '../../lib/contract.ts';
import type { LosslessValue } from '../../lib/lossless-json.ts';
import type { Exchange } from '../support/exchange.ts';
import { MALFORMED_BODIES } from '../support/exact-bodies.ts';
import type { RuleJudge } from '../support/judge.ts';
import { answer, errorCode, idOf, newPet, objectIn, PET_STATUSES, sameValue, show, statusGist, type JsonObject } from '../support/pets.ts';
import { CREATES, rule, test } from '../support/test.ts';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The Pet answered for `sent` carries an id and the fields sent; false (and judged) when not. */
function expectEcho(check: RuleJudge, sent: JsonObject, created: Exchange): boolean {
  const pet = objectIn(created);
  if (!check.expect(created.response.status === 201, `expected 201 for ${show(sent)}, got ${answer(created)}`, { rule: RULE['created-as-sent'], evidence: created })) return false;
  if (!check.expect(idOf(pet) !== undefined, `expected the created Pet to carry an integer id, got ${show(pet?.id)}`, { rule: RULE['created-as-sent'], evidence: created })) return false;
  let echoed = true;
  for (const [field, value] of Object.entries(sent)) {
    echoed &&= check.expect(sameValue(value, pet?.[field]), `expected ${field} ${show(value)} back, got ${show(pet?.[field])}`, { rule: RULE['created-as-sent'], evidence: created });
  }
  return echoed;
}

test(...rule('CREATE-1', 'a valid NewPet is answered 201 with a Pet that carries an assigned id and the fields sent', { tag: [CREATES] }), async ({ api, check }) => {
  const { status: _unsent, ...withoutStatus } = newPet();
  for (const sent of [newPet({ status: 'pending' }), withoutStatus]) expectEcho(check, sent, await api.createPet(sent));
});

test(...rule('RES-1', 'the service accepts each PetStatus value and returns it as sent', { tag: [CREATES] }), async ({ api, check }) => {
  for (const status of PET_STATUSES) {
    const sent = newPet({ status });
    const created = await api.createPet(sent);
    check.expect(created.response.status === 201, `expected status "${status}" to be accepted (201), got ${answer(created)}`, { evidence: created });
    if (created.response.status === 201) check.expect(objectIn(created)?.status === status, `expected status "${status}" back, got ${show(objectIn(created)?.status)}`, { evidence: created });
  }
});

/** Every case must be answered 400 with an Error (the Error body itself is checked on every response). */
/**
 * The answer must be 400 "with an Error": the body is judged here as well as by the contract check (ERR-1), so a
 * 400 whose body is no Error fails this rule too, rather than leaving it unjudged behind ERR-1.
 */
async function expect400(check: RuleJudge, send: () => Promise<Exchange>, what: string): Promise<void> {
  const exchange = await send();
  if (!check.expect(exchange.response.status === 400, `expected 400 for ${what}, got ${answer(exchange)}`, { evidence: exchange })) return;
  const problems = exchange.json === undefined ? ['no JSON body'] : schemaProblems('Error', exchange.json);
  check.expect(problems.length === 0, `expected the 400 for ${what} to carry an Error, got ${answer(exchange)} (${problems.join('; ')})`, { evidence: exchange });
}

const MISSING: Array<[string, LosslessValue]> = [
  ['a body without name', { categoryId: 1, status: 'available' }],
  ['a body without categoryId', { name: 'conformance no category', status: 'available' }],
  ['an empty object', {}],
];

test(...rule('CREATE-2', 'a body missing name or categoryId is answered 400 with an Error'), async ({ api, check }) => {
  for (const [what, body] of MISSING) await expect400(check, () => api.createPet(body), what);
});

const INVALID: Array<[string, LosslessValue]> = [
  ['a number as name', { name: 42, categoryId: 1 }],
  ['null as name', { name: null, categoryId: 1 }],
  ['a string as categoryId', { name: 'conformance', categoryId: '1' }],
  ['a fraction as categoryId', { name: 'conformance', categoryId: 1.5 }],
  ['a categoryId above the int64 range', { name: 'conformance', categoryId: INT64_MAX + 1n }],
  ['a categoryId below the int64 range', { name: 'conformance', categoryId: INT64_MIN - 1n }],
  ['a status outside PetStatus', { name: 'conformance', categoryId: 1, status: 'lost' }],
  ['a number as status', { name: 'conformance', categoryId: 1, status: 5 }],
  ['an array instead of an object', [{ name: 'conformance', categoryId: 1 }]],
  ['null instead of an object', null],
];

test(...rule('CREATE-3', 'a body with an invalid value is answered 400 with an Error'), async ({ api, check }) => {
  for (const [what, body] of INVALID) await expect400(check, () => api.createPet(body), what);
});

/**
 * A request outside the contract (lib/contract.ts) may get any client error with an Error: a POST with no
 * body at all is answered 400 by some frameworks and 415 by others (express-openapi-validator, a proxy in front).
 * No success fits it: nothing was sent to create.
 */
function expectClientError(check: RuleJudge, exchange: Exchange, what: string): void {
  const status = exchange.response.status;
  if (!check.expect(status >= 400 && status < 500, `expected a client error with an Error for ${what}, got ${answer(exchange)}`, { evidence: exchange })) return;
  const problems = exchange.json === undefined ? ['no JSON body'] : schemaProblems('Error', exchange.json);
  check.expect(problems.length === 0, `expected the ${status} for ${what} to carry an Error, got ${answer(exchange)} (${problems.join('; ')})`, { evidence: exchange });
}

test(...rule('CREATE-4', 'an empty or malformed JSON body is answered 400 with an Error, a request with no body a client error with an Error', { also: ['CREATE-GAP-2'] }), async ({ api, check }) => {
  for (const [what, body] of MALFORMED_BODIES) {
    if (body !== undefined) {
      await expect400(check, () => api.createPetRaw({ body, contentType: 'application/json' }), what);
    } else {
      const exchange = await api.createPetRaw({});
      check.observe(`a POST /pets with no body at all was answered ${statusGist(exchange)}`, RULE['outside-json-contract']);
      expectClientError(check, exchange, what);
    }
  }
});

test(...rule('CREATE-GAP-1', 'the answer to a body that carries an id or fields NewPet does not have', { tag: [CREATES] }), async ({ api, check }) => {
  const withId = await api.createPet(newPet({ id: 4242424242 }));
  const gotId = idOf(withId.json);
  check.observe(
    withId.response.status === 201
      ? `a body with "id": 4242424242 was answered 201 with id ${gotId}${gotId === '4242424242' ? ' (the id sent was used)' : ' (the id sent was ignored)'}`
      : `a body with "id" was answered ${withId.response.status} ${errorCode(withId)}`,
  );
  check.gist(withId.response.status === 201 ? (gotId === '4242424242' ? 'id sent used' : 'id sent ignored') : `id sent refused ${withId.response.status}`);
  const withExtra = await api.createPet(newPet({ colour: 'tabby' }));
  const echoed = objectIn(withExtra)?.colour;
  check.observe(
    withExtra.response.status === 201
      ? `a body with an unknown field "colour" was answered 201${echoed === undefined ? ', the field dropped' : ', the field kept'}`
      : `a body with an unknown field was answered ${withExtra.response.status} ${errorCode(withExtra)}`,
  );
  check.gist(withExtra.response.status === 201 ? (echoed === undefined ? 'unknown field dropped' : 'unknown field kept') : `unknown field refused ${withExtra.response.status}`);
});

test(...rule('RES-GAP-1', 'what a categoryId refers to and whether any int64 is accepted', { tag: [CREATES], also: ['CREATE-1'] }), async ({ api, check }) => {
  const answers: string[] = [];
  const gists: string[] = [];
  for (const categoryId of [0, -1, 2n ** 53n + 1n, INT64_MAX]) {
    const sent = newPet({ categoryId });
    const created = await api.createPet(sent);
    if (categoryId === -1 || categoryId === INT64_MAX) gists.push(`categoryId ${categoryId === -1 ? '-1' : 'int64 max'}: ${statusGist(created)}`);
    answers.push(`categoryId ${categoryId} → ${created.response.status}${created.response.status === 201 ? '' : ` ${errorCode(created)}`}`);
    // Accepted is a choice; accepted and changed is not: the Pet must carry the categoryId sent, exactly.
    if (created.response.status === 201) expectEcho(check, sent, created);
  }
  check.observe(answers.join('; '));
  check.gist(gists.join('; '));
});

test(...rule('RES-GAP-2', 'limits on the length or format of name', { tag: [CREATES] }), async ({ api, check }) => {
  const answers: string[] = [];
  const gists: string[] = [];
  const cases = [
    ['an empty name', '', 'empty name'],
    ['a name of 10,000 characters', 'n'.repeat(10_000), '10,000 characters'],
    ['a name with emoji and accents', 'Zoë 🐈', undefined],
  ] as const;
  for (const [what, name, gist] of cases) {
    const created = await api.createPet(newPet({ name }));
    if (gist) gists.push(`${gist}: ${statusGist(created)}`);
    answers.push(`${what} → ${created.response.status}${created.response.status === 201 ? '' : ` ${errorCode(created)}`}`);
  }
  check.observe(answers.join('; '));
  check.gist(gists.join('; '));
});

test(...rule('RES-GAP-3', 'the status a pet gets when it is created without one', { tag: [CREATES] }), async ({ api, check }) => {
  const created = await api.createPet({ name: 'conformance no status', categoryId: 1 });
  const pet = objectIn(created);
  check.observe(
    created.response.status === 201
      ? pet && 'status' in pet
        ? `a pet created without status was given status ${show(pet.status)}`
        : 'a pet created without status has no status field'
      : `a pet without status was answered ${created.response.status}`,
  );
  check.gist(created.response.status === 201 ? (pet && 'status' in pet ? `default ${show(pet.status)}` : 'no status field') : `refused ${created.response.status}`);
});

const EVENT_HEADER = /^(link|x-webhook.*|x-event.*|x-callback.*|x-hub.*)$/i;

test(...rule('EVT-GAP-1', 'events, webhooks or notifications', { tag: [CREATES] }), async ({ api, check }) => {
  const created = await api.createPet(newPet());
  const hints = Object.entries(created.response.headers).filter(([name]) => EVENT_HEADER.test(name));
  check.observe(
    hints.length > 0
      ? `creating a pet answered ${created.response.status} with ${hints.map(([name, value]) => `${name}: ${value}`).join('; ')}`
      : `creating a pet answered ${created.response.status} with no Link or webhook header: no event or notification was announced`,
  );
  check.gist(hints.length > 0 ? `announced by ${hints.map(([name]) => name).join(', ')}` : 'none announced');
});
