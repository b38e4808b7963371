/**
 * The request bodies the suite means to send byte for byte: malformed JSON must reach the target as written,
 * or CREATE-4 tests a body that was never sent. test/unit/suite-client/exact-bytes.spec.ts proves every one
 * arrives unchanged, through each transport, at an echo server.
 */

/** CREATE-4's cases: what the body is, and the body (undefined: no body at all). */
export const MALFORMED_BODIES: ReadonlyArray<readonly [string, string | undefined]> = [
  ['no body at all', undefined],
  ['an empty body', ''],
  ['a truncated JSON object', '{"name": "conformance", "categoryId": '],
  ['text that is not JSON', 'name=conformance&categoryId=1'],
  ['JSON with a trailing comma', '{"name": "conformance", "categoryId": 1,}'],
];

/** The malformed body ERR-1 sends to get a 400 with an Error. */
export const TRUNCATED_BODY = '{';
