/**
 * What the judge holds the service to about a pet the capture saw created (harness/judge/created-pets.ts): getPet of it
 * answers it as created (GET-1) and keeps working (DEP-1), a list by its status that is not full holds it (LIST-7);
 * and what it leaves alone: fields the target adds, a full list or one without a status filter, and requests that
 * may have been decided before the creation (within the clock skew, or without their request's time), and pets created
 * before a reset of the store the capture shows (an id handed out twice).
 */
import { expect, test } from '@playwright/test';
import type { JudgedExchange } from '../../lib/capture/exchange.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { CreatedPets } from '../../harness/judge/created-pets.ts';
import type { ExchangeFindings } from '../../harness/judge/rule-tally.ts';

const T0 = Date.UTC(2026, 10, 22, 6, 6, 9);
const CREATED = '{"id":7,"name":"Rex junior","categoryId":1,"status":"available"}';

interface Step {
  operation: 'createPet' | 'getPet' | 'listPets';
  path: string;
  status: number;
  body?: string;
  /** When the request left, ms after the creation's answer; undefined: not known. */
  sentAfterMs: number | undefined;
}

/** The findings of the last step, after a creation of pet 7 answered at T0. */
function findingsOf(step: Step): ExchangeFindings {
  const pets = new CreatedPets(1_000);
  const exchange = (number: number, { path, status, body, sentAfterMs }: Omit<Step, 'operation'>): JudgedExchange =>
    ({ number, method: 'GET', path, status, answeredAt: T0 + (sentAfterMs ?? 2_000) + 5, sentAt: sentAfterMs === undefined ? undefined : T0 + sentAfterMs, responseBody: body }) as JudgedExchange;
  const none = (): ExchangeFindings => ({ judged: [], violations: [], unchecked: [], observed: [] });
  pets.add({ ...exchange(1, { path: '/pets', status: 201, body: CREATED, sentAfterMs: -10 }), answeredAt: T0 }, 'createPet', new JsonBody(CREATED), none());
  const findings = none();
  pets.add(exchange(2, step), step.operation, step.body === undefined ? undefined : new JsonBody(step.body), findings);
  return findings;
}

const rulesOf = (findings: ExchangeFindings): Record<string, string[]> => ({
  judged: [...new Set(findings.judged)].sort(),
  failed: [...new Set(findings.violations.map((violation) => violation.rule))].sort(),
  unchecked: [...new Set(findings.unchecked.map((note) => note.rule))].sort(),
});

test('getPet of a created pet, sent after its creation came, answered as created (with a field more) passes GET-1 and DEP-1; renamed it fails GET-1; answered 404 fails GET-1 and DEP-1', () => {
  const get = (status: number, body?: string): Step => ({ operation: 'getPet', path: '/pets/7', status, ...(body !== undefined ? { body } : {}), sentAfterMs: 1_500 });
  expect(rulesOf(findingsOf(get(200, CREATED.replace('}', ',"tag":"dog"}'))))).toEqual({ judged: ['DEP-1', 'GET-1'], failed: [], unchecked: [] });
  const renamed = findingsOf(get(200, CREATED.replace('Rex junior', 'Rex junior (cached)')));
  expect(rulesOf(renamed).failed).toEqual(['GET-1']);
  expect(renamed.violations[0]!.message).toMatch(/^expected pet 7 as created \(exchange 1: .*\), got name otherwise/);
  expect(rulesOf(findingsOf(get(404, '{"code":"not_found","message":"removed","status":404}'))).failed).toEqual(['DEP-1', 'GET-1']);
});

test('a list by the created pet\'s status that is not full must hold it; a full list, one without a status filter, or one whose query the contract leaves open says nothing of it', () => {
  const list = (path: string, body: string): Step => ({ operation: 'listPets', path, status: 200, body, sentAfterMs: 1_500 });
  const other = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';
  expect(rulesOf(findingsOf(list('/pets?status=available', `[${other},${CREATED}]`)))).toEqual({ judged: ['LIST-7'], failed: [], unchecked: [] });
  const missing = findingsOf(list('/pets?status=available', `[${other}]`));
  expect(rulesOf(missing).failed).toEqual(['LIST-7']);
  expect(missing.violations[0]!.message).toContain('missing 7 (exchange 1)');
  expect(rulesOf(findingsOf(list('/pets?status=available&limit=1', `[${other}]`)))).toEqual({ judged: [], failed: [], unchecked: [] });
  expect(rulesOf(findingsOf(list('/pets?status=sold', '[]')))).toEqual({ judged: [], failed: [], unchecked: [] });
  expect(rulesOf(findingsOf(list('/pets', `[${other}]`)))).toEqual({ judged: [], failed: [], unchecked: [] });
  // A limit past the contract's may be cut to its largest page, and a status given twice read either way.
  for (const path of ['/pets?status=available&limit=500', '/pets?status=available&status=sold', '/pets?status=available&limit=5&limit=50']) {
    expect(rulesOf(findingsOf(list(path, `[${other}]`))), path).toEqual({ judged: [], failed: [], unchecked: [] });
  }
});

test('requests that may have been decided before the creation fail nothing, and say so', () => {
  for (const sentAfterMs of [300, undefined]) {
    const get = findingsOf({ operation: 'getPet', path: '/pets/7', status: 404, sentAfterMs });
    expect(rulesOf(get)).toEqual({ judged: [], failed: [], unchecked: ['DEP-1', 'GET-1'] });
  }
  const list = findingsOf({ operation: 'listPets', path: '/pets?status=available', status: 200, body: '[]', sentAfterMs: 300 });
  expect(rulesOf(list)).toEqual({ judged: [], failed: [], unchecked: ['LIST-7'] });
  expect(list.unchecked[0]!.reason).toContain('two clocks may have put them first');
});

test('a store reset within the capture (createPet handing out an id again, for another pet) leaves the pets created before it unjudged, and says why; without a reset, getPet answering another pet still fails GET-1', () => {
  const none = (): ExchangeFindings => ({ judged: [], violations: [], unchecked: [], observed: [] });
  const pet = (id: number, name: string): string => `{"id":${id},"name":"${name}","categoryId":1,"status":"available"}`;
  /** The findings of each step, each sent 1.5 s after the one before was answered. */
  const run = (steps: ReadonlyArray<readonly [Step['operation'], string, number, string | undefined]>): ExchangeFindings[] => {
    const pets = new CreatedPets(1_000);
    return steps.map(([operation, path, status, body], index) => {
      const findings = none();
      const sentAt = T0 + index * 2_000;
      pets.add({ number: index + 1, method: operation === 'createPet' ? 'POST' : 'GET', path, status, sentAt, answeredAt: sentAt + 5, responseBody: body } as JudgedExchange, operation, body === undefined ? undefined : new JsonBody(body), findings);
      return findings;
    });
  };
  const before = [['createPet', '/pets', 201, pet(1, 'Rex')], ['createPet', '/pets', 201, pet(2, 'Mia')]] as const;
  // Ids restart at 1 for another pet: pet 2 is gone and pet 1 is Tom now, and neither is a failure.
  const reset = run([...before, ['createPet', '/pets', 201, pet(1, 'Tom')], ['getPet', '/pets/1', 200, pet(1, 'Tom')], ['getPet', '/pets/2', 404, '{"code":"not_found","message":"no pet","status":404}'], ['listPets', '/pets?status=available', 200, `[${pet(1, 'Tom')}]`]]);
  expect(reset.map(rulesOf)).toEqual([
    { judged: [], failed: [], unchecked: [] },
    { judged: [], failed: [], unchecked: [] },
    { judged: [], failed: [], unchecked: ['DEP-1', 'GET-1', 'LIST-7'] },
    { judged: ['DEP-1', 'GET-1'], failed: [], unchecked: [] },
    { judged: [], failed: [], unchecked: ['DEP-1', 'GET-1'] },
    { judged: ['LIST-7'], failed: [], unchecked: [] },
  ]);
  expect(reset[4]!.unchecked[0]!.reason).toContain('the store was reset within the capture');
  // Pet 1 answered as the pet created after the reset is judged against that one: Rex now fails.
  expect(rulesOf(run([...before, ['createPet', '/pets', 201, pet(1, 'Tom')], ['getPet', '/pets/1', 200, pet(1, 'Rex')]])[3]!).failed).toEqual(['GET-1']);
  // No id handed out twice: getPet of pet 1 answering pet 2, or 404, fails.
  expect(rulesOf(run([...before, ['getPet', '/pets/1', 200, pet(2, 'Mia')]])[2]!).failed).toEqual(['GET-1']);
  expect(rulesOf(run([...before, ['getPet', '/pets/2', 404, '{"code":"not_found","message":"no pet","status":404}']])[2]!).failed).toEqual(['DEP-1', 'GET-1']);
});
