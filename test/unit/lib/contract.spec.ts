import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { allowedMethods, matchOperation, operation, schemaProblems } from '../../../lib/contract.ts';
import { readFixtureYaml } from '../../../lib/fixtures.ts';
import { parseLossless } from '../../../lib/lossless-json.ts';

test.describe('contract', () => {
  test('matches each documented operation by method and path below the base URL', () => {
    expect(matchOperation('GET', '/pets')?.operation.id).toBe('listPets');
    expect(matchOperation('post', '/pets')?.operation.id).toBe('createPet');
    expect(matchOperation('GET', '/pets/42')).toMatchObject({ operation: { id: 'getPet' }, pathParams: { petId: '42' } });
    expect(matchOperation('GET', '/store/orders')?.operation.id).toBe('listOrders');
    expect(matchOperation('DELETE', '/pets/42')).toBeUndefined();
    expect(matchOperation('GET', '/pets/42/extra')).toBeUndefined();
    expect(allowedMethods('/pets')).toEqual(['GET', 'POST']);
    expect(allowedMethods('/nowhere')).toEqual([]);
  });

  test('getPet is deprecated with the spec removal date', () => {
    expect(operation('getPet')).toMatchObject({ deprecated: true, sunset: '2030-12-05' });
    expect(operation('listOrders').stability).toBe('experimental');
  });

  test('NewPet problems name the field', () => {
    expect(schemaProblems('NewPet', parseLossless('{"name":"Rex","categoryId":1,"status":"sold"}'))).toEqual([]);
    expect(schemaProblems('NewPet', parseLossless('{}'))).toEqual(['name is required', 'categoryId is required']);
    expect(schemaProblems('NewPet', parseLossless('{"name":1,"categoryId":1.5}'))).toEqual(['name must be a string', 'categoryId must be an integer (int64)']);
    expect(schemaProblems('NewPet', parseLossless('{"name":"Rex","categoryId":9223372036854775808}'))).toEqual(['categoryId is outside the int64 range']);
    expect(schemaProblems('NewPet', parseLossless('{"name":"Rex","categoryId":1,"status":"lost"}'))).toEqual([
      'status must be one of available, pending, sold',
    ]);
    expect(schemaProblems('NewPet', parseLossless('[]'))).toEqual(['body must be an object']);
  });

  // lib/contract.ts adds the schemas without this check, to keep it out of every process's start-up.
  test('every schema of the contract is a valid JSON Schema 2020-12', () => {
    const { components } = readFixtureYaml('openapi.yaml') as { components: { schemas: Record<string, object> } };
    const ajv = new Ajv2020({ strict: false });
    expect(Object.keys(components.schemas).length).toBeGreaterThan(0);
    for (const [name, schema] of Object.entries(components.schemas)) expect(ajv.validateSchema(schema) ? '' : `${name}: ${ajv.errorsText()}`).toBe('');
  });
});
