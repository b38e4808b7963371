/**
 * Query and path values, generated from an operation's parameters in the contract. Valid ones are written as a
 * careful client writes them; unusual ones are what a careless client or a fuzzer sends: an integer with a
 * leading zero or a plus sign, a fraction, a number past every range, a value outside an enum (one differing
 * only in case), text of every kind. Such requests are outside the contract (lib/contract.ts): any client
 * error with an Error fits, or a lenient reading; what the target chose is observed in LIST-GAP-2, LIST-GAP-4.
 */
import fc from 'fast-check';
import { type ContractParameter, type ContractSchema, rangeOf, resolveSchema } from '../../../lib/contract.ts';
import { anyText } from './valid-values.ts';

export type Query = Record<string, string>;

/** Each optional parameter present or not, each present one valid. */
export function validQuery(parameters: readonly ContractParameter[]): fc.Arbitrary<Query> {
  const entries = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => [parameter.name, validText(parameter.schema)] as const);
  const required = parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((parameter) => parameter.name);
  return fc.record(Object.fromEntries(entries), { requiredKeys: required }) as fc.Arbitrary<Query>;
}

export function validText(raw: ContractSchema): fc.Arbitrary<string> {
  const schema = resolveSchema(raw);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === 'integer') {
    const { min, max } = rangeOf(schema);
    return fc.oneof(fc.constantFrom(min, max), fc.bigInt({ min, max })).map(String);
  }
  return anyText;
}

/** The kinds of text a parameter's schema does not have, one arbitrary each, so every kind is tried in every run. */
export function unusualKinds(raw: ContractSchema): Array<[string, fc.Arbitrary<string>]> {
  const schema = resolveSchema(raw);
  const kinds: Array<[string, fc.Arbitrary<string>]> = [
    ['empty or blank text', fc.constantFrom('', ' ')],
    ['any text', anyText],
  ];
  if (schema.enum) {
    const allowed = new Set(schema.enum);
    const near = schema.enum.flatMap((value) => [value.toUpperCase(), `${value.charAt(0).toUpperCase()}${value.slice(1)}`, ` ${value}`]).filter((value) => !allowed.has(value));
    kinds.push(['a value differing from its enum only in case or space', fc.constantFrom(...near)]);
  }
  if (schema.type === 'integer') {
    const { min, max } = rangeOf(schema);
    const inRange = fc.bigInt({ min: min > 0n ? min : 1n, max });
    kinds.push(['an integer with a leading zero', inRange.map((value) => `0${value}`)]);
    kinds.push(['an integer with a plus sign', inRange.map((value) => `+${value}`)]);
    kinds.push(['a number outside its range, or not an integer', fc.constantFrom(`${min - 1n}`, `${max + 1n}`, '-1', '1.5', '1e2', '0x10', '99999999999999999999999')]);
  }
  return kinds;
}

/** A valid query with one of its parameters given two or three times, each time a valid value. */
export function repeatedQuery(parameters: readonly ContractParameter[]): fc.Arbitrary<Record<string, string | readonly string[]>> {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  return fc.tuple(validQuery(parameters), fc.constantFrom(...query)).chain(([valid, parameter]) =>
    fc.array(validText(parameter.schema), { minLength: 2, maxLength: 3 }).map((values) => ({ ...valid, [parameter.name]: values })),
  );
}
