/**
 * Authentication on every operation, the store-orders area included. Requests without a valid key may be
 * rate limited per client; the client waits such a 429 out, so it never counts against a 401 rule.
 */
import { OPERATION_IDS, type OperationId } from '../../lib/contract.ts';
import type { PetStoreClient } from '../support/client.ts';
import type { RuleJudge } from '../support/judge.ts';
import { answer, newPet, objectIn, show } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

/** An unauthenticated request is answered 401; the Error body is checked on every response. */
async function expect401(check: RuleJudge, client: PetStoreClient, op: OperationId, what: string): Promise<void> {
  const exchange = await client.operation(op);
  check.expect(exchange.response.status === 401, `expected 401 for ${op} with ${what}, got ${answer(exchange)}`, { evidence: exchange });
}

function functionalKey(api: PetStoreClient): string {
  return (api.authorization ?? '').replace(/^Bearer /, '');
}

for (const op of OPERATION_IDS) {
  test(...rule('AUTH-1', `a request without an Authorization header is answered 401 with an Error: ${op}`), async ({ anonymous, check }) => {
    await expect401(check, anonymous, op, 'no Authorization header');
  });

  test(...rule('AUTH-2', `a request with an unknown key is answered 401 with an Error: ${op}`), async ({ anonymous, check }) => {
    await expect401(check, anonymous.withAuthorization(`Bearer unknown-${Date.now().toString(36)}`), op, 'an unknown key');
  });

  test(...rule('AUTH-3', `a valid key in another scheme (Basic, Token, or without "Bearer") is answered 401: ${op}`), async ({ api, check }) => {
    const key = functionalKey(api);
    const schemes: Array<[string, string]> = [
      [`Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'the key as Basic credentials'],
      [key, 'the raw key without "Bearer"'],
      [`Token ${key}`, 'the key in a "Token" scheme'],
    ];
    for (const [authorization, what] of schemes) await expect401(check, api.withAuthorization(authorization), op, what);
  });

  test(...rule('AUTH-4', `an empty bearer token is answered 401: ${op}`), async ({ anonymous, check }) => {
    for (const authorization of ['Bearer', 'Bearer    ']) await expect401(check, anonymous.withAuthorization(authorization), op, `"Authorization: ${authorization}"`);
  });

  test(...rule('AUTH-5', `a valid key sent as "Authorization: Bearer <API_KEY>" is accepted: ${op}`), async ({ api, check, target }) => {
    const readOnly = target.settings.readOnly;
    // A read-only run creates nothing: an invalid body answered 400 (not 401) still shows the key was accepted.
    const exchange = op === 'createPet' ? await api.createPet(readOnly ? {} : newPet()) : await api.operation(op);
    const expected = op === 'createPet' ? (readOnly ? [400] : [201]) : op === 'getPet' ? [200, 404] : [200];
    check.expect(expected.includes(exchange.response.status), `expected ${expected.join(' or ')} for ${op} with a valid key, got ${answer(exchange)}`, { evidence: exchange });
  });
}

test(...rule('AUTH-6', 'a 401 carries a WWW-Authenticate challenge for the Bearer scheme'), async ({ anonymous, check }) => {
  const refused: OperationId[] = [];
  for (const op of OPERATION_IDS) {
    const exchange = await anonymous.operation(op);
    if (exchange.response.status !== 401) continue;
    refused.push(op);
    const challenge = exchange.response.headers['www-authenticate'];
    check.expect(
      challenge !== undefined && /(^|,)\s*bearer(\s|,|$)/i.test(challenge),
      `expected a WWW-Authenticate: Bearer challenge on the 401 of ${op}, got ${challenge === undefined ? 'none' : `"${challenge}"`}`,
      { evidence: exchange },
    );
  }
  const unrefused = OPERATION_IDS.filter((op) => !refused.includes(op));
  if (unrefused.length > 0) check.unchecked(`the challenge on ${unrefused.join(', ')}: a request without a key was not answered 401 there (AUTH-1 judges that)`);
});

test(...rule('AUTH-7', 'the scheme name is matched case-insensitively: "bearer <API_KEY>" is accepted'), async ({ api, check }) => {
  const key = functionalKey(api);
  for (const scheme of ['bearer', 'BEARER']) {
    const exchange = await api.withAuthorization(`${scheme} ${key}`, api.plan).listPets({ limit: 1 });
    check.expect(exchange.response.status === 200, `expected "${scheme} <API_KEY>" to be accepted (200), got ${answer(exchange)}`, { evidence: exchange });
  }
});

test(...rule('AUTH-GAP-1', 'how keys are issued and revoked'), async ({ anonymous, check }) => {
  // The interface has no key operation; what a refused client is told is all the suite can see of it.
  const exchange = await anonymous.withAuthorization('Bearer never-issued').listPets();
  const message = objectIn(exchange)?.message;
  const challenge = exchange.response.headers['www-authenticate'];
  check.observe(
    `an unknown key is answered ${exchange.response.status} with message ${show(message)}${challenge ? ` and WWW-Authenticate: ${challenge}` : ''}; no link to key issuance is given`,
  );
  check.gist(`${exchange.response.status}${challenge ? ` with ${challenge.split(/\s/)[0]} challenge` : ', no challenge'}`);
});
