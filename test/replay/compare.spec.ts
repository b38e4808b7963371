/** Comparing a replayed response with the recorded one: real differences found and named by pointer; volatile parts, order of lists and remapped ids left out. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CaptureBase } from '../../lib/capture/base.ts';
import { compareResponses, type ComparableResponse } from '../../harness/replay/compare.ts';
import { IdMap } from '../../harness/replay/id-map.ts';
import { DEFAULT_IGNORE_FILE, IgnoreSet } from '../../harness/replay/ignore.ts';
import { tempDir } from './support.ts';

const defaults = IgnoreSet.load([DEFAULT_IGNORE_FILE]);
const rules = defaults.forOperation('listPets');

function response(body: string, headers: Record<string, string> = {}, status = 200): ComparableResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': '1790000000', date: 'Sun, 22 Nov 2026 06:00:00 GMT', ...headers },
    body,
  };
}

test('volatile headers are compared for presence only, transport and ignored headers not at all', () => {
  const recorded = response('[]', { 'content-length': '2', server: 'a', etag: '"1"' });
  const replayed = response('[]', { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1790000060', date: 'Mon, 23 Nov 2026 00:00:00 GMT', server: 'b' });
  expect(compareResponses(recorded, replayed, { rules, ids: new IdMap() })).toEqual([]);

  const { 'x-ratelimit-remaining': _dropped, ...withoutRemaining } = replayed.headers;
  expect(compareResponses(recorded, { ...replayed, headers: withoutRemaining }, { rules, ids: new IdMap() })).toEqual([
    { where: 'header x-ratelimit-remaining', recorded: '299', replayed: undefined },
  ]);
});

test('a changed field is named by its JSON pointer in each body', () => {
  const differences = compareResponses(response('{"id":1,"name":"Rex","status":"available"}'), response('{"id":1,"name":"Max","status":"available","extra":true}'), { rules, ids: new IdMap() });
  expect(differences).toEqual([
    { where: 'body /name', recordedPointer: '/name', replayedPointer: '/name', recorded: '"Rex"', replayed: '"Max"' },
    { where: 'body /extra', replayedPointer: '/extra', recorded: undefined, replayed: 'true' },
  ]);
});

test('lists of items with ids are compared by id, so order is no difference, but a missing item is', () => {
  const recorded = response('[{"id":1,"name":"Rex"},{"id":2,"name":"Luna"}]');
  expect(compareResponses(recorded, response('[{"id":2,"name":"Luna"},{"id":1,"name":"Rex"}]'), { rules, ids: new IdMap() })).toEqual([]);
  const differences = compareResponses(recorded, response('[{"id":2,"name":"Lunar"}]'), { rules, ids: new IdMap() });
  expect(differences.map((d) => [d.where, d.recordedPointer, d.replayedPointer])).toEqual([
    ['body /0', '/0', undefined],
    ['body /1/name', '/1/name', '/0/name'],
  ]);
});

test('ids the target assigned anew are no difference, in bodies and in Location', () => {
  const ids = new IdMap();
  ids.learn('17', '9007199254740993');
  const recorded = response('[{"id":17,"name":"Rex"}]', { location: '/v1/pets/17' }, 201);
  const replayed = response('[{"id":9007199254740993,"name":"Rex"}]', { location: '/v1/pets/9007199254740993' }, 201);
  expect(compareResponses(recorded, replayed, { rules, ids })).toEqual([]);
  expect(compareResponses(recorded, response('[{"id":9007199254740992,"name":"Rex"}]', { location: '/v1/pets/9007199254740993' }, 201), { rules, ids })).toHaveLength(2);
});

test('a Location under the recorded base is compared under the target base', () => {
  const base = new CaptureBase('https://petstore.example.test/api/v1');
  const rebase = (url: string): string => base.rebase(url, 'http://127.0.0.1:8080/v1');
  const recorded = response('{}', { location: '/api/v1/pets/7' }, 201);
  expect(compareResponses(recorded, response('{}', { location: '/v1/pets/7' }, 201), { rules, ids: new IdMap(), rebase })).toEqual([]);
  const absolute = response('{}', { location: 'https://petstore.example.test/api/v1/pets/7' }, 201);
  expect(compareResponses(absolute, response('{}', { location: 'http://127.0.0.1:8080/v1/pets/7' }, 201), { rules, ids: new IdMap(), rebase })).toEqual([]);
});

test('a status, and a body that is not JSON, are compared as they are', () => {
  const differences = compareResponses(response('oops', {}, 500), response('{"id":1}'), { rules, ids: new IdMap() });
  expect(differences.map((d) => d.where)).toEqual(['status', 'body']);
});

test('an ignore file leaves out headers and pointers, with * for any segment and per operation', () => {
  const file = join(tempDir('ignore'), 'ignore.yaml');
  writeFileSync(file, 'headers: [X-Trace]\nbody: [/*/updatedAt]\noperations:\n  getPet:\n    body: [""]\n');
  const set = IgnoreSet.load([DEFAULT_IGNORE_FILE, file]);
  const recorded = response('[{"id":1,"updatedAt":"a"}]', { 'x-trace': '1' });
  const replayed = response('[{"id":1,"updatedAt":"b"}]', { 'x-trace': '2' });
  expect(compareResponses(recorded, replayed, { rules: set.forOperation('listPets'), ids: new IdMap() })).toEqual([]);
  expect(compareResponses(response('{"id":1}'), response('{"id":2}'), { rules: set.forOperation('getPet'), ids: new IdMap() })).toEqual([]);
  expect(compareResponses(response('{"id":1}'), response('{"id":2}'), { rules: set.forOperation('createPet'), ids: new IdMap() })).toHaveLength(1);
});

test('a wrong ignore file is refused with the file and the entry named', () => {
  const dir = tempDir('ignore-bad');
  const cases: Array<[string, RegExp]> = [
    ['body: [name]', /body "name" is not a JSON pointer/],
    ['headerz: [a]', /unknown key "headerz"/],
    ['operations:\n  deletePet: {}', /unknown operation "deletePet"/],
    ['headers: a: b: [', /not valid YAML/],
  ];
  cases.forEach(([text, message], index) => {
    const file = join(dir, `bad-${index}.yaml`);
    writeFileSync(file, text);
    expect(() => IgnoreSet.load([file])).toThrow(message);
  });
  expect(() => IgnoreSet.load([join(dir, 'missing.yaml')])).toThrow(/missing\.yaml: no such file/);
});
