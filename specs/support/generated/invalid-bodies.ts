/**
 * Request bodies that break the contract in exactly one way, generated from the body's schema, one kind of
 * breach at a time so every kind is tried in every run: a required field left out, a field of the wrong type,
 * a value outside its enum (one differing only in case among them), an integer past its format's range, a body
 * that is not an object, JSON cut short. Each body is the bytes to send, so a shrunk failure shows exactly what
 * went out, and says what is wrong with it.
 *
 * Other bodies are outside the contract (lib/request-kinds.ts): a field given twice, deep nesting, a body of
 * hundreds of kilobytes, a Content-Type other than JSON. A parser or proxy may refuse them with any client
 * error (413, 415, 422 …) carrying an Error, or read them leniently (`readings`: the pets such a reading
 * creates); a 5xx fails, and what the target did is reported (CREATE-GAP-2).
 */
import fc from 'fast-check';
import { resolveSchema, type ContractSchema } from '../../../lib/contract.ts';
import { stringifyLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { DEEPEST_PLAIN_NESTING, rangeOf } from '../../../lib/request-kinds.ts';
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
}

type Fields = Record<string, LosslessValue>;

export function bodyBreaches(raw: ContractSchema): Breach[] {
  const schema = resolveSchema(raw);
  const valid = validValue(schema) as fc.Arbitrary<Fields>;
  const complete = completeObject(schema);
  const breaches: Breach[] = [
    { name: 'JSON that is not an object', expect: 'refused', rule: 'CREATE-3', body: notAnObject },
    { name: 'JSON cut short', expect: 'refused', rule: 'CREATE-4', body: cutShort(valid) },
  ];
  for (const name of schema.required ?? []) {
    breaches.push({ name: `${name} left out`, expect: 'refused', rule: 'CREATE-2', body: valid.map((fields) => body(withoutField(fields, name), `required field ${name} left out`)) });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const [kind, wrong] of wrongValues(resolveSchema(property))) {
      breaches.push({
        name: `${name}: ${kind}`,
        expect: 'refused',
        rule: 'CREATE-3',
        body: fc.tuple(complete, wrong).map(([fields, [value, why]]) => body({ ...fields, [name]: value }, `${name}: ${why}`)),
      });
    }
  }
  const outside = { expect: 'outside', rule: 'RESP-1', gap: 'CREATE-GAP-2' } as const;
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
    const beyond = [...(min === INT64_MIN ? [INT64_MIN - 1n, -(2n ** 64n)] : [min - 1n]), ...(max === INT64_MAX ? [INT64_MAX + 1n, 2n ** 64n, 10n ** 30n] : [max + 1n])];
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
