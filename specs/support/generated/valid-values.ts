/**
 * Values the contract accepts, generated from its schemas (lib/contract.ts): a change to fixtures/openapi.yaml
 * changes what is generated. Biased towards what implementations get wrong: text outside the Basic Multilingual
 * Plane, integers at and past 2^31 and 2^53 up to the int64 bounds, optional fields present and absent.
 */
import fc from 'fast-check';
import { type ContractSchema, rangeOf, resolveSchema } from '../../../lib/contract.ts';
import type { LosslessValue } from '../../../lib/lossless-json.ts';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;

/** Integers where stacks break: the edges of 32-bit, of exact doubles and of 64-bit. */
const EDGES = [0n, 1n, -1n, INT32_MAX, INT32_MAX + 1n, INT32_MIN, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, INT64_MAX, INT64_MIN];

function validInteger(schema: ContractSchema): fc.Arbitrary<LosslessValue> {
  const { min, max } = rangeOf(schema);
  const edges = [...EDGES, min, max].filter((value) => value >= min && value <= max);
  // Within a double's exact range a plain number is what a JSON parser gives; beyond, the lossless tree holds a bigint.
  const exact = (value: bigint): LosslessValue => (value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value);
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min, max })).map(exact);
}

/**
 * An arbitrary built on its first use. fast-check builds the whole of Unicode's table for a binary string when the
 * arbitrary is made (about a second of CPU); made at import, every process that lists the suite paid it, the
 * runner and each worker, in every run, whether or not a generated test ran there.
 */
class BuiltOnFirstUse<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;
  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }
  private arbitrary(): fc.Arbitrary<T> {
    return (this.built ??= this.build());
  }
  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary().generate(random, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary().canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary().shrink(value, context);
  }
}

/** Text of every kind: ASCII, the whole of Unicode (astral characters included), and the empty string. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  new BuiltOnFirstUse(() => fc.string({ unit: 'binary', maxLength: 40 })),
  fc.constantFrom('', '🐈', 'Ré\u0301x', '\u{10FFFF}', '\u0000', '"\\/\b\f\n\r\t'),
);

export function validValue(raw: ContractSchema): fc.Arbitrary<LosslessValue> {
  const schema = resolveSchema(raw);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
      return validInteger(schema);
    case 'string':
      return anyText;
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { maxLength: 5 });
    case 'object':
      return validObject(schema);
    default:
      throw new Error(`the request generators do not know the schema type ${String(schema.type)}; teach specs/support/generated/valid-values.ts`);
  }
}

function validObject(schema: ContractSchema): fc.Arbitrary<LosslessValue> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(properties).map(([name, property]) => [name, validValue(property)] as const);
  return fc.record(Object.fromEntries(entries), { requiredKeys: [...required].filter((name) => name in properties) }) as fc.Arbitrary<LosslessValue>;
}
