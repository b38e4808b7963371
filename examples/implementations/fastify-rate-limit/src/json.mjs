/**
 * int64 in JSON. Fastify parses bodies with JSON.parse, which rounds integers beyond 2^53; categoryId is an
 * int64, so bodies are parsed with lossless-json instead (such integers become BigInt), and the body
 * validator learns an `int64` keyword that accepts a safe integer or a BigInt in the int64 range.
 * fast-json-stringify writes a BigInt declared `type: integer` as the number it is.
 */
import { isInteger, parse } from 'lossless-json';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function parseNumber(text) {
  const value = Number(text);
  return isInteger(text) && !Number.isSafeInteger(value) ? BigInt(text) : value;
}

export function parseJsonBody(_request, body, done) {
  try {
    done(null, parse(body, null, parseNumber));
  } catch (error) {
    done(Object.assign(error, { statusCode: 400 }));
  }
}

export function addInt64Keyword(ajv) {
  return ajv.addKeyword({
    keyword: 'int64',
    schemaType: 'boolean',
    validate: function int64(_schema, value) {
      const valid = typeof value === 'bigint' ? value >= INT64_MIN && value <= INT64_MAX : Number.isSafeInteger(value);
      int64.errors = valid ? [] : [{ keyword: 'int64', message: `must be an integer from ${INT64_MIN} to ${INT64_MAX}`, params: {} }];
      return valid;
    },
  });
}
