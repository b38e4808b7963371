/**
 * The classes of input every run tries, written down once per kind of parameter: the deterministic phase of the
 * generated project, before its seeded random one (as Schemathesis runs its coverage phase before fuzzing).
 * Each class comes from the grammar of its kind (how a number, a query value or a token can be written) and
 * from what careful testers try at the edges; each request carries the name of its class, and the report lists
 * the classes each property sent.
 */
import { type ContractSchema, rangeOf, resolveSchema } from '../../../lib/contract.ts';
import type { LosslessValue } from '../../../lib/lossless-json.ts';

export interface InputClass<T> {
  name: string;
  values: readonly T[];
}

/** A value with the class it was drawn from ("random" for the seeded phase). */
export interface Tagged<T> {
  value: T;
  inputClass: string;
}

const TWO_TO_31 = 2n ** 31n;
const TWO_TO_53 = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The longest name every run sends: far past any column a database might give a name. */
export const LONGEST_STRING = 10_000;

/** Numbers in a JSON body: where stacks break (32-bit, exact doubles, 64-bit) and the schema's own range. */
export function integerClasses(raw: ContractSchema): Array<InputClass<bigint>> {
  const { min, max } = rangeOf(resolveSchema(raw));
  const classes: Array<InputClass<bigint>> = [
    { name: 'zero', values: [0n] },
    { name: 'one', values: [1n] },
    { name: 'negative', values: [-1n] },
    { name: '2^31 - 1 and 2^31', values: [TWO_TO_31 - 1n, TWO_TO_31] },
    { name: '-2^31 - 1', values: [-TWO_TO_31 - 1n] },
    { name: '2^53 - 1, 2^53 and 2^53 + 1', values: [TWO_TO_53 - 1n, TWO_TO_53, TWO_TO_53 + 1n] },
    { name: '2^63 - 5', values: [INT64_MAX - 4n] },
    { name: 'int64 extremes', values: [INT64_MAX, INT64_MIN] },
    { name: 'range extremes', values: [min, max] },
  ];
  return classes.map((item) => ({ ...item, values: [...new Set(item.values.filter((value) => value >= min && value <= max))] })).filter((item) => item.values.length > 0);
}

/** Text in a JSON body: lengths, the planes of Unicode, what JSON must escape, what renders oddly. */
export const STRING_CLASSES: ReadonlyArray<InputClass<string>> = [
  { name: 'empty', values: [''] },
  { name: 'one character', values: ['a'] },
  { name: 'short plain', values: ['Rex', 'Mr Whiskers'] },
  { name: 'over 100 characters', values: ['n'.repeat(101)] },
  { name: 'longest', values: ['n'.repeat(LONGEST_STRING)] },
  { name: 'blank', values: [' ', '   '] },
  { name: 'surrounding spaces', values: [' Rex '] },
  { name: 'accents and combining marks', values: ['Zoë', 'Ré\u0301x'] },
  { name: 'astral characters', values: ['🐈 Tom', '\u{1F415}'] },
  { name: 'last code point', values: ['\u{10FFFF}'] },
  { name: 'right to left', values: ['\u05E8\u05E7\u05E1'] },
  { name: 'control characters', values: ['\u0000', 'a\nb', 'tab\there', '\u007F'] },
  { name: 'JSON escapes', values: ['"\\/\b\f\n\r\t'] },
  { name: 'markup and quotes', values: ['<b>Rex</b>', "O'Brien", 'Robert"); DROP TABLE pets;--'] },
];

/** An enumeration: each of its values. */
export function enumClasses(values: readonly string[]): Array<InputClass<string>> {
  return values.map((value) => ({ name: `"${value}"`, values: [value] }));
}

/** An integer written in a query string or a path segment, every way but the plain one: all outside the contract. */
export function integerTextClasses(raw: ContractSchema): Array<InputClass<string>> {
  const { min, max } = rangeOf(resolveSchema(raw));
  const inRange = min > 5n || max < 5n ? min : 5n;
  return [
    { name: 'letters', values: ['abc'] },
    { name: 'blank', values: [' '] },
    { name: 'leading zero', values: [`0${inRange}`, `00${inRange}`] },
    { name: 'plus sign', values: [`+${inRange}`] },
    { name: 'surrounding spaces', values: [` ${inRange}`, `${inRange} `] },
    { name: 'negative zero', values: ['-0'] },
    { name: 'fraction', values: ['1.5', '0.5'] },
    { name: 'whole number as a fraction or exponent', values: [`${inRange}.0`, '1e2', '1E+2'] },
    { name: 'hexadecimal', values: ['0x10'] },
    { name: 'just outside its range', values: [`${min - 1n}`, `${max + 1n}`] },
    { name: 'past int64', values: [`${INT64_MAX + 1n}`, `${INT64_MIN - 1n}`, `${2n ** 64n + 1n}`] },
    { name: 'digits beyond any integer', values: ['99999999999999999999999'] },
  ];
}

/**
 * A list query with a parameter given twice (OWASP's HTTP parameter pollution): outside the contract. Every
 * reading of two canonical statuses filters, so a status twice is judged; two limits are read as either, or
 * ignored.
 */
export function repeatedParameterClasses(statuses: readonly string[]): Array<InputClass<Readonly<Record<string, readonly string[]>>>> {
  const [first = 'available', second = first, third = second] = [...statuses].reverse();
  return [
    { name: 'limit given twice', values: [{ limit: ['5', '7'] }, { limit: ['7', '5'] }, { limit: ['1', '100'] }] },
    // On the largest page, so a filter dropped shows animals of the other statuses.
    { name: 'status given twice', values: [{ status: [first, first], limit: ['100'] }, { status: [first, second], limit: ['100'] }, { status: [second, first] }] },
    { name: 'both given twice', values: [{ limit: ['100', '3'], status: [first, second] }] },
    { name: 'status given three times', values: [{ status: [first, second, third] }] },
  ];
}

/** An enumeration's value written in a query string, every way but the exact one. */
export function enumTextClasses(values: readonly string[]): Array<InputClass<string>> {
  const allowed = new Set(values);
  const cased = values.flatMap((value) => [value.toUpperCase(), `${value.charAt(0).toUpperCase()}${value.slice(1)}`]).filter((value) => !allowed.has(value));
  return [
    { name: 'empty', values: [''] },
    { name: 'other case', values: cased },
    { name: 'surrounding spaces', values: values.map((value) => ` ${value}`) },
    { name: 'unknown word', values: ['lost'] },
    { name: 'several values', values: [values.slice(0, 2).join(',')] },
  ];
}

/** Tokens after "Bearer ": none is a key the target knows, so each is answered 401 (AUTH-2). */
export function bearerTokenClasses(key: string): Array<InputClass<string>> {
  const last = key.at(-1) ?? 'x';
  return [
    { name: 'unknown token', values: ['not-a-key-of-this-service'] },
    { name: 'a key with its last character changed', values: [`${key.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`] },
    { name: 'a key cut short', values: [key.slice(0, Math.max(1, key.length - 1))] },
    { name: 'a key with more after it', values: [`${key}0`, `${key}-extra`] },
    { name: 'a key with its prefix doubled', values: [`${key}${key}`] },
    { name: 'token68 characters', values: ['a+b/c~d=', 'YWxhZGRpbjpvcGVu'] },
  ];
}

/** Each class's values once, as tagged examples; classes of unequal length are zipped by `combine`. */
export function tagged<T>(classes: ReadonlyArray<InputClass<T>>): Array<Tagged<T>> {
  return classes.flatMap((item) => item.values.map((value) => ({ value, inputClass: item.name })));
}

/** A JSON integer as a lossless value: a number within a double's exact range, a bigint beyond. */
export function jsonInteger(value: bigint): LosslessValue {
  return value >= -TWO_TO_53 && value <= TWO_TO_53 ? Number(value) : value;
}
