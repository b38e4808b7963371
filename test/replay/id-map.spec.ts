/** Stateful replay: recorded ids become the ids the target assigned, exactly, above 2^53 too, and nothing else is touched. */
import { expect, test } from '@playwright/test';
import { createdId, IdMap, namedIds } from '../../harness/replay/id-map.ts';
import { JsonBody } from '../../lib/json-body.ts';
import { parseLossless } from '../../lib/lossless-json.ts';

test('a recorded id in a later path becomes the id the target assigned', () => {
  const ids = new IdMap();
  ids.learn('17', '3');
  expect(ids.remapPath('/pets/17')).toBe('/pets/3');
  expect(ids.remapPath('/pets/170')).toBe('/pets/170');
  expect(ids.remapPath('/pets')).toBe('/pets');
  expect(ids.isIdentity).toBe(false);
});

test('an id the target gave as text goes into a path percent-encoded, so it cannot split the request line', () => {
  const ids = new IdMap();
  ids.learn('17', 'a b/\r\nX: 1');
  expect(ids.remapPath('/pets/17')).toBe('/pets/a%20b%2F%0D%0AX%3A%201');
});

test('ids above 2^53 map exactly, as text, in paths and bodies', () => {
  const ids = new IdMap();
  const recorded = createdId(parseLossless('{"id": 9223372036854775801, "name": "Rex"}'));
  expect(recorded).toBe('9223372036854775801');
  ids.learn('7', '1152921504606846983');
  ids.learn(recorded ?? '', '12');
  expect(ids.remapPath('/pets/7')).toBe('/pets/1152921504606846983');
  expect(ids.remapPath('/pets/9223372036854775801')).toBe('/pets/12');
  expect(ids.remapBody(new JsonBody('{"petId":7,"categoryId":7,"name":"7"}'))).toBe('{"petId":1152921504606846983,"categoryId":7,"name":"7"}');
});

test('a recorded response is put in the target ids before comparison; other numbers stay', () => {
  const ids = new IdMap();
  ids.learn('17', '9007199254740993');
  const normalised = ids.normalise(parseLossless('[{"id":17,"categoryId":17},{"id":5,"categoryId":1}]'));
  expect(normalised).toEqual([
    { id: 9007199254740993n, categoryId: 17 },
    { id: 5, categoryId: 1 },
  ]);
});

test('a body without ids to change is sent byte for byte as recorded', () => {
  const ids = new IdMap();
  ids.learn('1', '2');
  const body = '{ "name" : "Rex",  "categoryId": 1 }';
  expect(ids.remapBody(new JsonBody(body))).toBe(body);
  expect(ids.remapBody(new JsonBody('{"id": not json'))).toBe('{"id": not json');
});

test('the ids a request names are found in its path and its id fields', () => {
  expect(namedIds('/pets/42', undefined)).toEqual(['42']);
  expect(namedIds('/pets', new JsonBody('{"petId": 9223372036854775807, "categoryId": 3}'))).toEqual(['9223372036854775807']);
});

test('a recorded text is put in the target ids only where it plainly writes an id key, so an exact match means equal bodies', () => {
  const ids = new IdMap();
  ids.learn('17', '3');
  ids.learn('9223372036854775801', '12');
  expect(ids.remapText('[{"id":17,"categoryId":17},{"petId" : 9223372036854775801}]')).toBe('[{"id":3,"categoryId":17},{"petId" : 12}]');
  // Inside a string, as a longer number, or a key that only ends in id: left alone.
  expect(ids.remapText('{"name":"\\"id\\":17","id":170,"xid":17,"k\\"id":17}')).toBe('{"name":"\\"id\\":17","id":170,"xid":17,"k\\"id":17}');
  expect(ids.remapText('{"id":17.5}')).toBe('{"id":17.5}');
});
