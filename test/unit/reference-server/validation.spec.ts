import { expect, test } from '@playwright/test';
import { checkJsonContentType, parseListQuery, parseNewPet, parsePetId, type Parsed } from '../../../reference-server/validation.ts';

function problem<T>(parsed: Parsed<T>): string {
  if (parsed.ok) throw new Error(`expected a problem, got ${String(parsed.value)}`);
  return parsed.problem;
}

const body = (text: string): Uint8Array => new TextEncoder().encode(text);

test.describe('parseListQuery', () => {
  test('defaults to 20 and no status filter; ignores parameters the operation does not have', () => {
    expect(parseListQuery('')).toEqual({ ok: true, value: { limit: 20, status: undefined } });
    expect(parseListQuery('page=3&sort=name')).toEqual({ ok: true, value: { limit: 20, status: undefined } });
  });

  test('accepts limit 1 to 100 and each PetStatus', () => {
    expect(parseListQuery('limit=1&status=available')).toEqual({ ok: true, value: { limit: 1, status: 'available' } });
    expect(parseListQuery('limit=100&status=pending')).toEqual({ ok: true, value: { limit: 100, status: 'pending' } });
    expect(parseListQuery('limit=007&status=sold')).toEqual({ ok: true, value: { limit: 7, status: 'sold' } });
  });

  test('a limit outside 1..100 or not a whole number names limit', () => {
    for (const limit of ['0', '101', '-1', '1.5', '1e1', 'ten', '', '+5', '%20', '99999999999999999999']) {
      expect(problem(parseListQuery(`limit=${limit}`)), limit).toMatch(/^limit must be a whole number from 1 to 100, got /);
    }
  });

  test('a status outside PetStatus names status and the allowed values', () => {
    expect(problem(parseListQuery('status=lost'))).toBe('status must be one of available, pending, sold, got "lost"');
    expect(problem(parseListQuery('status=AVAILABLE'))).toMatch(/^status must be one of/);
    expect(problem(parseListQuery('status='))).toMatch(/^status must be one of/);
  });

  test('a parameter given twice is refused rather than guessed', () => {
    expect(problem(parseListQuery('limit=1&limit=2'))).toBe('limit must be given at most once');
    expect(problem(parseListQuery('status=sold&status=pending'))).toBe('status must be given at most once');
  });
});

test.describe('parsePetId', () => {
  test('reads an exact int64, beyond 2^53 included', () => {
    expect(parsePetId('7')).toEqual({ ok: true, value: 7n });
    expect(parsePetId('9007199254740993')).toEqual({ ok: true, value: 9007199254740993n });
    expect(parsePetId('9223372036854775807')).toEqual({ ok: true, value: 9223372036854775807n });
    expect(parsePetId('-9223372036854775808')).toEqual({ ok: true, value: -9223372036854775808n });
  });

  test('anything else names petId and int64', () => {
    for (const text of ['abc', '1.5', '1e3', '', ' 1', '0x10', '9223372036854775808', '-9223372036854775809', '1'.repeat(400)]) {
      expect(problem(parsePetId(text)), text).toMatch(/^petId must be an int64/);
    }
  });
});

test.describe('checkJsonContentType', () => {
  test('accepts application/json with no charset or UTF-8, in any case', () => {
    for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"']) {
      expect(checkJsonContentType(type).ok, type).toBe(true);
    }
  });

  test('refuses a missing or other type, naming Content-Type', () => {
    expect(problem(checkJsonContentType(undefined))).toBe('Content-Type must be application/json; the request has none');
    for (const type of ['text/plain', 'application/jsonp', 'application/json; charset=latin1', 'multipart/form-data; boundary=x']) {
      expect(problem(checkJsonContentType(type)), type).toMatch(/^Content-Type must be application\/json/);
    }
  });
});

test.describe('parseNewPet', () => {
  test('reads a NewPet; status defaults to available; unknown fields and a client id are ignored', () => {
    expect(parseNewPet(body('{"name":"Rex","categoryId":2,"status":"sold"}'))).toEqual({ ok: true, value: { name: 'Rex', categoryId: 2, status: 'sold' } });
    expect(parseNewPet(body('{"name":"Rex","categoryId":2}'))).toEqual({ ok: true, value: { name: 'Rex', categoryId: 2, status: 'available' } });
    expect(parseNewPet(body('{"id":99,"name":"Rex","categoryId":2,"colour":"brown"}'))).toEqual({ ok: true, value: { name: 'Rex', categoryId: 2, status: 'available' } });
  });

  test('keeps a categoryId beyond 2^53 exact', () => {
    expect(parseNewPet(body('{"name":"Rex","categoryId":9223372036854775807}'))).toEqual({
      ok: true,
      value: { name: 'Rex', categoryId: 9223372036854775807n, status: 'available' },
    });
  });

  test('names each missing or invalid field', () => {
    expect(problem(parseNewPet(body('{}')))).toBe('name is required; categoryId is required');
    expect(problem(parseNewPet(body('{"name":"Rex"}')))).toBe('categoryId is required');
    expect(problem(parseNewPet(body('{"categoryId":1}')))).toBe('name is required');
    expect(problem(parseNewPet(body('{"name":5,"categoryId":1}')))).toBe('name must be a string');
    expect(problem(parseNewPet(body('{"name":"Rex","categoryId":"1"}')))).toBe('categoryId must be an integer (int64)');
    expect(problem(parseNewPet(body('{"name":"Rex","categoryId":1.5}')))).toBe('categoryId must be an integer (int64)');
    expect(problem(parseNewPet(body('{"name":"Rex","categoryId":1,"status":"lost"}')))).toBe('status must be one of available, pending, sold');
    expect(problem(parseNewPet(body('{"name":null,"categoryId":null}')))).toBe('name must be a string; categoryId must be an integer (int64)');
  });

  test('numbers outside int64 name categoryId and int64', () => {
    for (const number of ['9223372036854775808', '-9223372036854775809', '1e19', '1e400', '-1e300']) {
      expect(problem(parseNewPet(body(`{"name":"Rex","categoryId":${number}}`))), number).toMatch(/^categoryId (is outside the int64 range|must be an integer \(int64\))$/);
    }
    expect(problem(parseNewPet(body('{"name":"Rex","categoryId":1e17}')))).toMatch(/^categoryId beyond 2\^53 must be written as a plain integer/);
  });

  test('a body that is not one JSON object says so', () => {
    expect(problem(parseNewPet(body('')))).toMatch(/^the request body is required/);
    expect(problem(parseNewPet(body('  \n')))).toMatch(/^the request body is required/);
    expect(problem(parseNewPet(body('{"name":')))).toMatch(/^the request body is not valid JSON: /);
    expect(problem(parseNewPet(body('{"name":"Rex","categoryId":1} x')))).toMatch(/^the request body is not valid JSON: /);
    expect(problem(parseNewPet(body('[]')))).toBe('the request body must be a JSON object with name and categoryId, got an array');
    expect(problem(parseNewPet(body('null')))).toBe('the request body must be a JSON object with name and categoryId, got null');
    expect(problem(parseNewPet(body('"Rex"')))).toBe('the request body must be a JSON object with name and categoryId, got a string');
    expect(problem(parseNewPet(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('the request body is not valid UTF-8');
  });

  test('deeply nested JSON is a clear problem at any depth, not a stack overflow', () => {
    for (const depth of [33, 3_000, 60_000]) {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      expect(problem(parseNewPet(body(nested))), `depth ${depth}`).toBe('the request body is nested deeper than 32 levels');
      expect(problem(parseNewPet(body(`{"name":${nested},"categoryId":1}`))), `depth ${depth}`).toBe('the request body is nested deeper than 32 levels');
    }
    expect(parseNewPet(body('{"name":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[","categoryId":1,"x":[[[]]]}')).ok).toBe(true);
  });

  test('a __proto__ field is data, not a prototype', () => {
    const parsed = parseNewPet(body('{"__proto__":{"name":"Polluted"},"name":"Rex","categoryId":1}'));
    expect(parsed).toEqual({ ok: true, value: { name: 'Rex', categoryId: 1, status: 'available' } });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });
});
