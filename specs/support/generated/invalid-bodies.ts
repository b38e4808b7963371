/**
 * Request bodies that break the contract in exactly one way, generated from the body's schema: a required field
 * left out, a field of the wrong type, a value outside its enum (one differing only in case among them), an
 * integer past its format's range, a body that is not an object, JSON cut short. Each carries the bytes to send,
 * so a shrunk failure shows exactly what went out, and says what is wrong with it.
 *
 * Some bodies are only unusual (a duplicate key, deep nesting): the spec does not say whether they are refused,
 * so a target may accept or refuse them, but never answer with a 5xx.
 */
import fc from 'fast-check';
import { resolveSchema, type ContractSchema } from '../../../lib/contract.ts';
import { stringifyLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import { anyText, INT64_MAX, INT64_MIN, integerRange, validValue } from './valid-values.ts';

export interface GeneratedBody {
  /** Sent as is. */
  text: string;
  /** What is wrong with it, or unusual about it, in a few words. */
  why: string;
  /** refused: a conforming target answers 400 with an Error body. unusual: any documented status but a 5xx. */
  expect: 'refused' | 'unusual';
}

type Fields = Record<string, LosslessValue>;

export function invalidBodies(raw: ContractSchema): fc.Arbitrary<GeneratedBody> {
  const schema = resolveSchema(raw);
  const valid = validValue(schema) as fc.Arbitrary<Fields>;
  const complete = completeObject(schema);
  const breaches: Array<fc.Arbitrary<GeneratedBody>> = [notAnObject, cutShort(valid)];
  for (const name of schema.required ?? []) {
    breaches.push(valid.map((fields) => refused(withoutField(fields, name), `required field ${name} left out`)));
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    breaches.push(fc.tuple(complete, wrongValue(resolveSchema(property))).map(([fields, [value, why]]) => refused({ ...fields, [name]: value }, `${name}: ${why}`)));
  }
  breaches.push(fc.tuple(complete, anyText).map(([fields, value]) => ({ text: duplicateKey(fields, value), why: 'a field given twice', expect: 'unusual' as const })));
  breaches.push(fc.integer({ min: 64, max: 2_000 }).map((depth) => ({ text: `{"name":${'['.repeat(depth)}${']'.repeat(depth)},"categoryId":1}`, why: `a field nested ${depth} arrays deep`, expect: 'unusual' as const })));
  return fc.oneof(...breaches);
}

const refused = (fields: Fields, why: string): GeneratedBody => ({ text: stringifyLossless(fields), why, expect: 'refused' });

/** Every property present, so that breaking one leaves the rest valid. */
function completeObject(schema: ContractSchema): fc.Arbitrary<Fields> {
  const entries = Object.entries(schema.properties ?? {}).map(([name, property]) => [name, validValue(property)] as const);
  return fc.record(Object.fromEntries(entries)) as fc.Arbitrary<Fields>;
}

function withoutField(fields: Fields, name: string): Fields {
  const { [name]: _left, ...rest } = fields;
  return rest;
}

/** A value the property's schema refuses, and why. */
function wrongValue(schema: ContractSchema): fc.Arbitrary<[LosslessValue, string]> {
  const wrongType: Array<fc.Arbitrary<[LosslessValue, string]>> = [fc.constant<[LosslessValue, string]>([null, 'null'])];
  if (schema.type !== 'boolean') wrongType.push(fc.boolean().map((value): [LosslessValue, string] => [value, `the boolean ${value}`]));
  if (schema.type !== 'object') wrongType.push(fc.constant<[LosslessValue, string]>([{}, 'an object']));
  if (schema.type !== 'array') wrongType.push(fc.constant<[LosslessValue, string]>([[], 'an array']));
  if (schema.type === 'string') wrongType.push(fc.integer().map((value): [LosslessValue, string] => [value, `the number ${value}`]));
  if (schema.enum) {
    const allowed = new Set(schema.enum);
    const outside = fc.oneof(
      fc.constantFrom(...schema.enum.map((value) => value.toUpperCase()), ...schema.enum.map((value) => value.charAt(0).toUpperCase() + value.slice(1))),
      anyText,
    );
    wrongType.push(outside.filter((value) => !allowed.has(value)).map((value): [LosslessValue, string] => [value, `"${value}", not one of ${schema.enum!.join(', ')}`]));
  }
  if (schema.type === 'integer') {
    const { min, max } = integerRange(schema);
    const below = min === INT64_MIN ? [INT64_MIN - 1n, -(2n ** 64n)] : [min - 1n];
    const above = max === INT64_MAX ? [INT64_MAX + 1n, 2n ** 64n, 10n ** 30n] : [max + 1n];
    wrongType.push(fc.constantFrom(...below, ...above).map((value): [LosslessValue, string] => [value, `${value}, outside ${min}..${max}`]));
    wrongType.push(fc.constantFrom('1', '12', '-3').map((value): [LosslessValue, string] => [value, `the string "${value}"`]));
    wrongType.push(fc.constantFrom(1.5, -0.25).map((value): [LosslessValue, string] => [value, `the fraction ${value}`]));
  }
  return fc.oneof(...wrongType);
}

const notAnObject: fc.Arbitrary<GeneratedBody> = fc
  .constantFrom('null', '[]', '"pet"', '42', 'true', '[{"name":"a","categoryId":1}]')
  .map((text) => ({ text, why: `${text}, not an object`, expect: 'refused' as const }));

function cutShort(valid: fc.Arbitrary<Fields>): fc.Arbitrary<GeneratedBody> {
  return fc.tuple(valid, fc.nat()).map(([fields, at]) => {
    const text = stringifyLossless(fields);
    const length = text.length <= 1 ? 0 : 1 + (at % (text.length - 1));
    return { text: text.slice(0, length), why: `JSON cut after ${length} characters`, expect: 'refused' as const };
  });
}

/** The object's JSON with its first field written twice: as generated, then again with `value`. */
function duplicateKey(fields: Fields, value: string): string {
  const text = stringifyLossless(fields);
  const first = Object.keys(fields)[0] ?? 'name';
  return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(first)}:${JSON.stringify(value)}}`;
}
