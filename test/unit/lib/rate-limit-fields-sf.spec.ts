/**
 * The draft RateLimit fields are Structured Field lists (RFC 9651), read by the structured-headers library. Each
 * case is one where the hand-written regex it replaced read the field wrongly: it refused valid lists, took
 * invalid ones, split a quoted parameter at its semicolon and kept escapes in names.
 */
import { expect, test } from '@playwright/test';
import { parsePolicies } from '../../../lib/rate-limiter/standard-fields.ts';

test('valid lists the regex refused: an inner list member, a token with a tchar beyond letters and digits', () => {
  expect(parsePolicies('("a" "b");q=1, "minute";q=60;w=60')).toEqual([
    { name: '', quota: 1, windowSeconds: undefined },
    { name: 'minute', quota: 60, windowSeconds: 60 },
  ]);
  expect(parsePolicies('per!minute;q=60;w=60')).toEqual([{ name: 'per!minute', quota: 60, windowSeconds: 60 }]);
});

test('invalid lists the regex took: a trailing comma, a space before a parameter, a value that is no bare item', () => {
  expect(parsePolicies('"minute";q=60;w=60,')).toBeUndefined();
  expect(parsePolicies('"minute" ;q=60;w=60')).toBeUndefined();
  expect(parsePolicies('"minute";q=@@;w=60')).toBeUndefined();
  expect(parsePolicies('"min\\ute";q=60')).toBeUndefined();
});

test('a quoted parameter keeps its semicolon, a name its escapes undone, a negative quota is no quota', () => {
  expect(parsePolicies('"minute";q=60;pk="x;q=5"')).toEqual([{ name: 'minute', quota: 60, windowSeconds: undefined }]);
  expect(parsePolicies('"a\\"b";q=1')).toEqual([{ name: 'a"b', quota: 1, windowSeconds: undefined }]);
  expect(parsePolicies('"minute";q=-60;w=60')).toEqual([{ name: 'minute', quota: undefined, windowSeconds: 60 }]);
});
