import { test, expect } from '@playwright/test';

const rule = (...ids: string[]) => ({ annotation: ids.map((description) => ({ type: 'rule', description })) });
const key = (plan: string): string => process.env[`PETSTORE_API_KEY_${plan}`] ?? `demo-${plan.toLowerCase()}-1`;

test('LIST-1 MUST only animals with the requested status are returned', rule('LIST-1'), ({}, testInfo) => {
  const summary = { property: 'getPet with a petId that is not an int64', kind: 'outside the contract', requests: 3, classes: { 'petId: letters': 1, 'petId: plus sign': 2 }, answers: { '400 invalid_request': 3 }, seed: 7 };
  testInfo.annotations.push({ type: 'generated', description: JSON.stringify(summary) });
  expect(1).toBe(1);
});

test('LIST-2 MUST at most 20 animals without a limit', rule('LIST-2'), async ({}, testInfo) => {
  const evidence = {
    rule: 'LIST-2',
    request: { method: 'GET', url: 'http://127.0.0.1:9/v1/pets', headers: { authorization: `Bearer ${key('PRO')}` } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":1}]' },
    curl: `curl -H "Authorization: Bearer ${key('PRO')}" http://127.0.0.1:9/v1/pets`,
  };
  await testInfo.attach('evidence', { body: JSON.stringify(evidence), contentType: 'application/json' });
  throw new Error(`[LIST-2] expected at most 20 animals, got 25 (sent with ${key('FREE')})`);
});

test('CREATE-1 MUST a valid NewPet is answered 201', rule('CREATE-1', 'RESP-2'), () => {
  throw new Error('[RL-4] 201 response lacks x-ratelimit-reset');
});

test('AUTH-6 SHOULD a 401 carries a Bearer challenge', rule('AUTH-6'), ({}, testInfo) => {
  testInfo.annotations.push({ type: 'warning', description: '[AUTH-6] 401 without WWW-Authenticate' });
});

test('LIST-GAP-3 GAP the order of animals in a list', rule('LIST-GAP-3'), ({}, testInfo) => {
  testInfo.annotations.push({ type: 'observation', description: '[LIST-GAP-3] newest first' });
  testInfo.annotations.push({ type: 'throttled', description: 'waited 1.2 s after a 429 (Retry-After 1)' });
});

test('CREATE-4 MUST a malformed body is answered 400', rule('CREATE-4'), () => {
  test.skip(true, 'PETSTORE_READ_ONLY=1 leaves out the tests that create data');
});

test('GET-1 MUST an existing id is answered 200', rule('GET-1'), () => {
  expect(true).toBe(true);
});

test('GET-1 MUST a pet above 2^53 is answered as created', rule('GET-1'), () => {
  test.skip(true, 'needs PETSTORE_API_KEY_PRO');
});

test('LIST-3 MUST at most N animals for limit=N', rule('LIST-3'), ({}, testInfo) => {
  testInfo.annotations.push({ type: 'unchecked', description: '[LIST-3] limit=100 with more than 100 animals: the store shows 21' });
});

test('FOO-9 MUST a rule nobody wrote', rule('FOO-9'), () => {
  expect(2).toBe(2);
});
