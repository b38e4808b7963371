/**
 * Request bodies that break the contract in exactly one way, generated from the body's schema, one kind of
 * breach at a time so every kind is tried in every run: a required field left out, a field of the wrong type,
 * a value outside its enum (one differing only in case among them), an integer past its format's range, a body
 * that is not an object, JSON cut short. Each body is the bytes to send, so a shrunk failure shows exactly what
 * went out, and says what is wrong with it.
 *
 * Other bodies are outside the contract (lib/contract.ts): a field given twice, deep nesting, a body of
 * hundreds of kilobytes, a Content-Type other than JSON, a key special in JavaScript runtimes (__proto__,
 * constructor: OWASP's mass assignment and prototype pollution), an integer written 1e2 or 100.0. A parser or
 * proxy may refuse them with any client error (413, 415, 422 …) carrying an Error, or read them leniently
 * (`readings`: the pets such a reading creates); a 5xx fails, and what the target did is reported (CREATE-GAP-2).
 * Numbers JSON does not allow at all (007, +5, 0x10, NaN) make the body malformed: 400, as CREATE-4 says.
 */
import { RULE } from '../../../lib/checks/registry.ts';
import fc from 'fast-check';
import { type ContractSchema, DEEPEST_PLAIN_NESTING, rangeOf, resolveSchema, RUNTIME_SPECIAL_KEYS } from '../../../lib/contract.ts';
import { stringifyLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { anyText, INT64_MAX, INT64_MIN, validValue } from './valid-values.ts';

export interface GeneratedBody {
  /** Sent as is. */
  text: string;
  /** What is wrong with it, or unusual about it, in a few words. */
  why: string;
  /** The Content-Type sent: application/json when absent, none at all when null. */
  contentType?: string | null;
  /** For a body outside the contract: the pets a lenient reading of it creates (none: no success fits). */
  readings?: Fields[];
}

export interface Breach {
  /** The kind, e.g. "status outside its enum". */
  name: string;
  /**
   * refused: within the contract, a conforming target answers 400 with an Error, by `rule`. outside: any client
   * error with an Error, or a success that is one of the body's `readings` (RESP-1, the choice observed in `gap`).
   */
  expect: 'refused' | 'outside';
  rule: string;
  /** Where what the target did with a body outside the contract is reported. */
  gap?: string;
  body: fc.Arbitrary<GeneratedBody>;
  /** Bodies sent in every run before the seeded ones, one for each case the breach names. */
  examples?: GeneratedBody[];
}

type Fields = Record<string, LosslessValue>;

export function bodyBreaches(raw: ContractSchema): Breach[] {
  const schema = resolveSchema(raw);
  const valid = validValue(schema) as fc.Arbitrary<Fields>;
  const complete = completeObject(schema);
  const breaches: Breach[] = [
    { name: 'JSON that is not an object', expect: 'refused', rule: RULE['invalid-value-refused'], body: notAnObject },
    { name: 'JSON cut short', expect: 'refused', rule: RULE['body-required'], body: cutShort(valid) },
  ];
  for (const name of schema.required ?? []) {
    breaches.push({ name: `${name} left out`, expect: 'refused', rule: RULE['missing-field-refused'], body: valid.map((fields) => body(withoutField(fields, name), `required field ${name} left out`)) });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const [kind, wrong] of wrongValues(resolveSchema(property))) {
      breaches.push({
        name: `${name}: ${kind}`,
        expect: 'refused',
        rule: RULE['invalid-value-refused'],
        body: fc.tuple(complete, wrong).map(([fields, [value, why]]) => body({ ...fields, [name]: value }, `${name}: ${why}`)),
      });
    }
  }
  const outside = { expect: 'outside', rule: RULE['documented-status'], gap: RULE['outside-json-contract'] } as const;
  breaches.push({
    name: 'a field given twice',
    ...outside,
    body: fc.tuple(complete, anyText).map(([fields, value]) => {
      const first = Object.keys(fields)[0] ?? 'name';
      return { text: duplicateKey(fields, value), why: 'its first field given twice', readings: [fields, { ...fields, [first]: value }] };
    }),
  });
  breaches.push({
    name: 'deep nesting',
    ...outside,
    body: fc.integer({ min: 2 * DEEPEST_PLAIN_NESTING, max: 5_000 }).map((depth) => ({ text: `{"name":${'['.repeat(depth)}${']'.repeat(depth)},"categoryId":1}`, why: `name nested ${depth} arrays deep`, readings: [] })),
  });
  breaches.push({
    name: 'a body of hundreds of kilobytes',
    ...outside,
    body: fc.tuple(complete, fc.integer({ min: 70_000, max: 300_000 })).map(([fields, size]) => {
      const big = { ...fields, name: 'x'.repeat(size) };
      return { text: stringifyLossless(big), why: `a name of ${size} characters`, readings: [big] };
    }),
  });
  breaches.push({
    name: 'a key special in JavaScript runtimes',
    ...outside,
    body: fc.tuple(complete, fc.constantFrom(...RUNTIME_SPECIAL_KEYS)).map(([fields, key]) => withSpecialKey(fields, key)),
    examples: RUNTIME_SPECIAL_KEYS.map((key) => withSpecialKey(PLAIN_PET, key)),
  });
  const integers = Object.entries(schema.properties ?? {}).filter(([, property]) => resolveSchema(property).type === 'integer');
  if (integers.length > 0) {
    const spelt = (fields: Fields, name: string, [written, value]: readonly [string, bigint]): GeneratedBody => {
      const plain = { ...fields, [name]: PLACEHOLDER };
      return { text: stringifyLossless(plain).replace(JSON.stringify(PLACEHOLDER), written), why: `${name} written ${written}`, readings: [{ ...fields, [name]: Number(value) }] };
    };
    breaches.push({
      name: 'an integer in another JSON spelling',
      ...outside,
      body: fc.tuple(complete, fc.constantFrom(...integers.map(([name]) => name)), fc.constantFrom(...OTHER_SPELLINGS)).map(([fields, name, spelling]) => spelt(fields, name, spelling)),
      examples: integers.flatMap(([name]) => OTHER_SPELLINGS.map((spelling) => spelt(PLAIN_PET, name, spelling))),
    });
    breaches.push({
      name: 'a number JSON does not allow',
      expect: 'refused',
      rule: RULE['body-required'],
      body: fc.tuple(complete, fc.constantFrom(...integers.map(([name]) => name)), fc.constantFrom(...NOT_JSON_NUMBERS)).map(([fields, name, written]) => notJsonNumber(fields, name, written)),
      examples: integers.flatMap(([name]) => NOT_JSON_NUMBERS.map((written) => notJsonNumber(PLAIN_PET, name, written))),
    });
  }
  breaches.push({
    name: 'a Content-Type other than JSON, or none',
    ...outside,
    body: fc.tuple(valid, fc.constantFrom<string | null>('text/plain', 'application/x-www-form-urlencoded', 'application/xml', null)).map(([fields, contentType]) => ({
      text: stringifyLossless(fields),
      why: contentType === null ? 'no Content-Type' : `Content-Type ${contentType}`,
      contentType,
      readings: [fields],
    })),
  });
  return breaches;
}

const body = (fields: Fields, why: string): GeneratedBody => ({ text: stringifyLossless(fields), why });

/** A pet of ordinary values, for the bodies every run sends. */
const PLAIN_PET: Fields = { name: 'conformance owasp', categoryId: 1, status: 'available' };

/** What a special key carries: fields a merge that follows it would give every object, or this one. */
const POLLUTING = { name: 'polluted', categoryId: 2, status: 'sold', polluted: true };

/**
 * The pet's JSON with `key` added: an object of other field values under __proto__, constructor and
 * prototype, a plain value under the others. Created, the pet must carry its own fields as sent.
 */
function withSpecialKey(fields: Fields, key: string): GeneratedBody {
  const text = stringifyLossless(fields);
  const value = ['__proto__', 'constructor', 'prototype'].includes(key) ? JSON.stringify(key === 'constructor' ? { prototype: POLLUTING } : POLLUTING) : '"polluted"';
  return { text: `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(key)}:${value}}`, why: `the key ${key}`, readings: [fields] };
}

/** Integers written as JSON allows but no careful client writes them: the value, to a parser that reads JSON numbers. */
const OTHER_SPELLINGS: ReadonlyArray<readonly [string, bigint]> = [
  ['1.0', 1n],
  ['1e0', 1n],
  ['10E-1', 1n],
  ['1e2', 100n],
  ['1E+2', 100n],
  ['100.0', 100n],
  ['-0', 0n],
];

/** Numbers as a lenient parser or another language writes them, which JSON does not allow. */
const NOT_JSON_NUMBERS: readonly string[] = ['007', '+5', '.5', '5.', '0x10', 'NaN', 'Infinity', '1_000'];

const PLACEHOLDER = 'number-placeholder-8c1f';

function notJsonNumber(fields: Fields, name: string, written: string): GeneratedBody {
  return { text: stringifyLossless({ ...fields, [name]: PLACEHOLDER }).replace(JSON.stringify(PLACEHOLDER), written), why: `${name} written ${written}, which JSON does not allow` };
}

/** Every property present, so that breaking one leaves the rest valid. */
function completeObject(schema: ContractSchema): fc.Arbitrary<Fields> {
  const entries = Object.entries(schema.properties ?? {}).map(([name, property]) => [name, validValue(property)] as const);
  return fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Fields>;
}

function withoutField(fields: Fields, name: string): Fields {
  const { [name]: _left, ...rest } = fields;
  return rest;
}

type Wrong = fc.Arbitrary<[LosslessValue, string]>;

/** The kinds of value the property's schema refuses, each with why. */
function wrongValues(schema: ContractSchema): Array<[string, Wrong]> {
  const kinds: Array<[string, Wrong]> = [['null', fc.constant<[LosslessValue, string]>([null, 'null'])]];
  const others: Array<[LosslessValue, string]> = [];
  if (schema.type !== 'boolean') others.push([true, 'the boolean true']);
  if (schema.type !== 'object') others.push([{}, 'an object']);
  if (schema.type !== 'array') others.push([[], 'an array']);
  kinds.push(['another JSON type', fc.constantFrom(...others)]);
  if (schema.type === 'string') kinds.push(['a number', fc.integer().map((value): [LosslessValue, string] => [value, `the number ${value}`])]);
  if (schema.enum) {
    const allowed = new Set(schema.enum);
    const cased = [...new Set(schema.enum.flatMap((value) => [value.toUpperCase(), value.charAt(0).toUpperCase() + value.slice(1)]))].filter((value) => !allowed.has(value));
    const outside = (value: string): [LosslessValue, string] => [value, `"${value}", not one of ${schema.enum!.join(', ')}`];
    kinds.push(['a value differing from its enum only in case', fc.constantFrom(...cased).map(outside)]);
    kinds.push(['a value outside its enum', anyText.filter((value) => !allowed.has(value)).map(outside)]);
  }
  if (schema.type === 'integer') {
    const { min, max } = rangeOf(schema);
    const beyond = [...(min === INT64_MIN ? [INT64_MIN - 1n, -(2n ** 64n)] : [min - 1n]), ...(max === INT64_MAX ? [INT64_MAX + 1n, 2n ** 64n, 10n ** 30n, 10n ** 400n] : [max + 1n])];
    kinds.push(['an integer outside its range', fc.constantFrom(...beyond).map((value): [LosslessValue, string] => [value, `${value}, outside ${min}..${max}`])]);
    kinds.push(['digits in a string', fc.constantFrom('1', '12', '-3').map((value): [LosslessValue, string] => [value, `the string "${value}"`])]);
    kinds.push(['a fraction', fc.constantFrom(1.5, -0.25).map((value): [LosslessValue, string] => [value, `the fraction ${value}`])]);
  }
  return kinds;
}

const notAnObject: fc.Arbitrary<GeneratedBody> = fc
  .constantFrom('null', '[]', '"pet"', '42', 'true', '[{"name":"a","categoryId":1}]')
  .map((text) => ({ text, why: `${text}, not an object` }));

function cutShort(valid: fc.Arbitrary<Fields>): fc.Arbitrary<GeneratedBody> {
  return fc.tuple(valid, fc.nat()).map(([fields, at]) => {
    const text = stringifyLossless(fields);
    const length = text.length <= 1 ? 0 : 1 + (at % (text.length - 1));
    return { text: text.slice(0, length), why: `JSON cut after ${length} characters` };
  });
}

/** The object's JSON with its first field written twice: as generated, then again with `value`. */
function duplicateKey(fields: Fields, value: string): string {
  const text = stringifyLossless(fields);
  const first = Object.keys(fields)[0] ?? 'name';
  return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(first)}:${JSON.stringify(value)}}`;
}
