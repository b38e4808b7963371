/** Every documented case of the four operations, over HTTP, each answer also held against the contract. */
import { expect, test } from '@playwright/test';
import { PetStore } from '../../reference-server/store.ts';
import { contractProblems, TestServer } from './support.ts';

const KEY = 'demo-enterprise-1';
let server: TestServer;

test.beforeAll(async () => {
  server = await TestServer.start({ seedPets: 150 });
});
test.afterAll(() => server.close());

type PetJson = { id: number; name: string; categoryId: number; status?: string };

test.describe('GET /pets', () => {
  test('without limit answers a plain array of at most 20 pets', async () => {
    const answer = await server.call('/pets', { key: KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toHaveLength(20);
    expect(contractProblems('listPets', answer)).toEqual([]);
  });

  test('with limit N from 1 to 100 answers N pets when the store has more', async () => {
    for (const limit of [1, 7, 100]) {
      const answer = await server.call(`/pets?limit=${limit}`, { key: KEY });
      expect(answer.json, `limit=${limit}`).toHaveLength(limit);
      expect(contractProblems('listPets', answer)).toEqual([]);
    }
  });

  test('with a status answers only pets with that status, a full page of them', async () => {
    for (const status of ['available', 'pending', 'sold']) {
      const answer = await server.call(`/pets?status=${status}`, { key: KEY });
      const pets = answer.json as PetJson[];
      expect(pets, status).toHaveLength(20);
      expect(pets.filter((pet) => pet.status !== status)).toEqual([]);
      expect(contractProblems('listPets', answer)).toEqual([]);
    }
  });

  test('a limit outside 1..100 or not a whole number is a 400 Error naming limit', async () => {
    for (const limit of ['0', '101', '-5', '2.5', 'abc', '', '1e2']) {
      const answer = await server.call(`/pets?limit=${limit}`, { key: KEY });
      expect(answer.status, `limit=${limit}`).toBe(400);
      expect(answer.json).toMatchObject({ code: 'invalid_request', status: 400, message: expect.stringMatching(/^limit must be a whole number from 1 to 100/) });
      expect(contractProblems('listPets', answer)).toEqual([]);
    }
  });

  test('a status outside PetStatus is a 400 Error naming status', async () => {
    const answer = await server.call('/pets?status=adopted', { key: KEY });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 400, message: 'status must be one of available, pending, sold, got "adopted"' });
    expect(contractProblems('listPets', answer)).toEqual([]);
  });
});

test.describe('POST /pets', () => {
  const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    server.call('/pets', { method: 'POST', key: KEY, headers, body });

  test('answers 201 with the pet as sent, its new id and a Location that finds it', async () => {
    const answer = await post('{"name":"Tom","categoryId":3,"status":"pending"}');
    expect(answer.status).toBe(201);
    const pet = answer.json as PetJson;
    expect(pet).toEqual({ id: expect.any(Number), name: 'Tom', categoryId: 3, status: 'pending' });
    expect(answer.headers.location).toBe(`/v1/pets/${pet.id}`);
    expect(contractProblems('createPet', answer)).toEqual([]);
    const fetched = await server.call(`/pets/${pet.id}`, { key: KEY });
    expect(fetched.json).toEqual(pet);
  });

  test('files a pet without status as available, ignoring a client id and unknown fields', async () => {
    const answer = await post('{"id":1,"name":"Kit","categoryId":1,"colour":"grey"}');
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ id: expect.any(Number), name: 'Kit', categoryId: 1, status: 'available' });
    expect((answer.json as PetJson).id).not.toBe(1);
  });

  test('echoes a categoryId beyond 2^53 exactly', async () => {
    const answer = await post('{"name":"Big","categoryId":9223372036854775807}');
    expect(answer.status).toBe(201);
    expect(answer.body).toContain('"categoryId":9223372036854775807');
  });

  test('gives 100 pets created at once 100 different ids', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(`{"name":"p${i}","categoryId":${i}}`)));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    expect(new Set(answers.map((answer) => (answer.json as PetJson).id)).size).toBe(100);
  });

  test('a body missing a field or with an invalid value is a 400 Error naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['{"categoryId":1}', 'name is required'],
      ['{"name":"Rex"}', 'categoryId is required'],
      ['{"name":7,"categoryId":1}', 'name must be a string'],
      ['{"name":"Rex","categoryId":"7"}', 'categoryId must be an integer (int64)'],
      ['{"name":"Rex","categoryId":1,"status":"lost"}', 'status must be one of available, pending, sold'],
      ['{"name":"Rex","categoryId":9223372036854775808}', 'categoryId is outside the int64 range'],
      ['{"name":"Rex","categoryId":-9223372036854775809}', 'categoryId is outside the int64 range'],
    ];
    for (const [body, message] of cases) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
      expect(answer.json, body).toEqual({ code: 'invalid_request', message, status: 400 });
      expect(contractProblems('createPet', answer)).toEqual([]);
    }
  });

  test('a missing, empty, malformed or non-object body is a 400 Error that says so', async () => {
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /^the request body is required/],
      ['', /^the request body is required/],
      ['{"name":"Rex",', /^the request body is not valid JSON/],
      ["{'name':'Rex'}", /^the request body is not valid JSON/],
      ['[{"name":"Rex","categoryId":1}]', /^the request body must be a JSON object/],
      [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, /^the request body is nested deeper than 32 levels/],
    ];
    for (const [body, message] of cases) {
      const answer = await server.call('/pets', { method: 'POST', key: KEY, headers: { 'content-type': 'application/json' }, body });
      expect(answer.status, String(body)).toBe(400);
      expect((answer.json as { message: string }).message).toMatch(message);
      expect(contractProblems('createPet', answer)).toEqual([]);
    }
  });

  test('a body that is not application/json is a 400 Error naming Content-Type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=iso-8859-1']) {
      const answer = await post('{"name":"Rex","categoryId":1}', { 'content-type': type });
      expect(answer.status, type).toBe(400);
      expect((answer.json as { message: string }).message).toMatch(/^Content-Type must be application\/json/);
    }
    const none = await server.call('/pets', { method: 'POST', key: KEY, body: new Blob(['{"name":"Rex","categoryId":1}']) as unknown as string });
    expect(none.status).toBe(400);
    expect((none.json as { message: string }).message).toBe('Content-Type must be application/json; the request has none');
  });

  test('a body over 64 KiB is a 413 Error, with the rate-limit headers, and the server carries on', async () => {
    const answer = await post(JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }));
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ code: 'payload_too_large', message: 'the request body is larger than 65536 bytes', status: 413 });
    expect(answer.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await post('{"name":"after","categoryId":1}')).status).toBe(201);
  });
});

test.describe('GET /pets/{petId}', () => {
  test('answers 200 with the pet', async () => {
    const answer = await server.call('/pets/3', { key: KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: 3 });
    expect(contractProblems('getPet', answer)).toEqual([]);
  });

  test('an id no pet has is a 404 Error, beyond 2^53 and at the ends of int64 included', async () => {
    for (const id of ['999999', '0', '-1', '9007199254740993', '9223372036854775807', '-9223372036854775808']) {
      const answer = await server.call(`/pets/${id}`, { key: KEY });
      expect(answer.status, id).toBe(404);
      expect(answer.json).toEqual({ code: 'not_found', message: `no pet has id ${id}`, status: 404 });
      expect(contractProblems('getPet', answer)).toEqual([]);
    }
  });

  test('a petId that is not an int64 is a 404 Error saying petId must be an int64', async () => {
    for (const id of ['abc', '1.5', '9223372036854775808', '0x1F', '%20', 'null']) {
      const answer = await server.call(`/pets/${id}`, { key: KEY });
      expect(answer.status, id).toBe(404);
      expect((answer.json as { message: string }).message).toMatch(/^petId must be an int64/);
      expect(contractProblems('getPet', answer)).toEqual([]);
    }
  });

  test('marks every response deprecated: Deprecation before Sunset on 5 December 2030, and a Link to GET /pets', async () => {
    const answers = [await server.call('/pets/1', { key: KEY }), await server.call('/pets/424242', { key: KEY }), await server.call('/pets/1')];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401]);
    for (const { headers } of answers) {
      expect(headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(headers.deprecation).toMatch(/^@\d+$/);
      expect(Number(headers.deprecation?.slice(1)) * 1000).toBeLessThan(Date.parse(headers.sunset ?? ''));
      const link = /^<([^>]+)>;\s*rel="successor-version"$/.exec(headers.link ?? '');
      expect(link, headers.link).not.toBeNull();
      expect(new URL(link?.[1] ?? '', `${server.baseUrl}/pets/1`).href).toBe(`${server.baseUrl}/pets`);
    }
  });

  test('keeps working until its removal date, then answers 404 naming the successor', async () => {
    let now = Date.UTC(2030, 11, 4, 23, 59, 59);
    const timed = await TestServer.start({}, { clock: () => now });
    try {
      expect((await timed.call('/pets/1', { key: KEY })).status).toBe(200);
      now = Date.UTC(2030, 11, 5);
      const removed = await timed.call('/pets/1', { key: KEY });
      expect(removed.status).toBe(404);
      expect((removed.json as { message: string }).message).toMatch(/was removed on Thu, 05 Dec 2030 00:00:00 GMT; use GET \/v1\/pets/);
      expect(removed.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(contractProblems('getPet', removed, { now })).toEqual([]);
    } finally {
      await timed.close();
    }
  });
});

test.describe('GET /store/orders', () => {
  test('answers 200 with an empty list, marked experimental', async () => {
    const answer = await server.call('/store/orders', { key: KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([]);
    expect(answer.headers['x-api-stability']).toBe('experimental');
    expect(contractProblems('listOrders', answer)).toEqual([]);
  });

  test('is secured like every operation', async () => {
    const answer = await server.call('/store/orders');
    expect(answer.status).toBe(401);
    expect(answer.headers['x-api-stability']).toBe('experimental');
    expect(contractProblems('listOrders', answer)).toEqual([]);
  });
});

test.describe('routes the contract does not have', () => {
  test('an unknown path is a 404 Error with the rate-limit headers', async () => {
    for (const path of ['/nothing', '/pets/1/photos', '/pets/', '//pets', '/store', '/store/orders/1', '/PETS']) {
      const answer = await server.call(path, { key: KEY });
      expect(answer.status, path).toBe(404);
      expect(answer.json).toMatchObject({ code: 'not_found', status: 404 });
      expect(answer.headers['x-ratelimit-limit'], path).toMatch(/^\d+$/);
    }
    const outside = await fetch(`${server.baseUrl.replace(/\/v1$/, '')}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(outside.status).toBe(404);
  });

  test('a method the path does not have is a 405 Error with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/pets', 'GET, POST'],
      ['PUT', '/pets/1', 'GET'],
      ['PATCH', '/pets/1', 'GET'],
      ['POST', '/store/orders', 'GET'],
      ['OPTIONS', '/pets', 'GET, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await server.call(path, { method, key: KEY });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow).toBe(allow);
      expect(answer.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
      expect(answer.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    }
    const head = await fetch(`${server.baseUrl}/pets`, { method: 'HEAD', headers: { authorization: `Bearer ${KEY}` } });
    expect(head.status).toBe(405);
  });
});

test('a store of 1,000,000 pets answers a page like a small one', async () => {
  const store = new PetStore();
  store.seed(1_000_000);
  const big = await TestServer.start({}, { store });
  try {
    const answer = await big.call('/pets?status=sold&limit=100', { key: KEY });
    expect(answer.json).toHaveLength(100);
    expect(contractProblems('listPets', answer)).toEqual([]);
    expect((await big.call('/pets/1000000', { key: KEY })).status).toBe(200);
  } finally {
    await big.close();
  }
});
