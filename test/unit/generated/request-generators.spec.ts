/** The request generators agree with the contract they are built from: what they call valid is, what they call refused is not. */
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { classifyRequest, requestShape, schemaProblems } from '../../../lib/contract.ts';
import { parseLossless } from '../../../lib/lossless-json.ts';
import { bodyBreaches } from '../../../specs/support/generated/invalid-bodies.ts';
import { enumTextClasses, integerClasses, integerTextClasses, STRING_CLASSES, tagged } from '../../../specs/support/generated/input-classes.ts';
import { validValue } from '../../../specs/support/generated/valid-values.ts';
import { settingsFromEnv, suiteSeed } from '../../../specs/support/settings.ts';

const body = requestShape('createPet').body!;

test('every generated NewPet is valid by the contract, and the edges of int64 and Unicode are among them', () => {
  const samples = fc.sample(validValue(body), { numRuns: 2_000, seed: 1 });
  for (const sample of samples) expect(schemaProblems('NewPet', sample), JSON.stringify(sample, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toEqual([]);
  const categoryIds = samples.map((sample) => (sample as { categoryId: unknown }).categoryId);
  expect(categoryIds).toContain(2n ** 63n - 1n);
  expect(categoryIds).toContain(2 ** 31);
  expect(samples.some((sample) => /[\u{10000}-\u{10FFFF}]/u.test(String((sample as { name: unknown }).name)))).toBe(true);
});

test('every body of a breach the contract refuses is not JSON or not a valid NewPet', () => {
  for (const breach of bodyBreaches(body).filter((candidate) => candidate.expect === 'refused')) {
    for (const generated of fc.sample(breach.body, { numRuns: 200, seed: 2 })) {
      let problems: string[];
      try {
        problems = schemaProblems('NewPet', parseLossless(generated.text));
      } catch {
        continue;
      }
      expect(problems.length, `${breach.name}: ${generated.text}`).toBeGreaterThan(0);
    }
  }
});

test('the breaches are built from the schema: each required field, each property, the enum, the int64 range', () => {
  const names = bodyBreaches(body).map((breach) => breach.name);
  expect(names).toEqual(
    expect.arrayContaining(['name left out', 'categoryId left out', 'status: a value differing from its enum only in case', 'categoryId: an integer outside its range', 'name: a number', 'JSON that is not an object', 'JSON cut short', 'a field given twice', 'deep nesting']),
  );
});

test('the default run is deterministic: the suite version fixes the seed, whatever seed the run drew; exploring takes the drawn one', () => {
  const bundled = (generatedSeed: number) => ({ port: 1, clockAnchorMs: 0, generatedSeed });
  expect(settingsFromEnv({}, bundled(11)).generated).toEqual({ runs: 12, seed: suiteSeed(), explore: false });
  expect(settingsFromEnv({}, bundled(22)).generated.seed).toBe(suiteSeed());
  expect(settingsFromEnv({ PETSTORE_GENERATED_EXPLORE: '1' }, bundled(22)).generated).toMatchObject({ seed: 22, explore: true });
  expect(settingsFromEnv({ PETSTORE_GENERATED_EXPLORE: '1', PETSTORE_GENERATED_SEED: '5' }, bundled(22)).generated.seed).toBe(5);
  expect(() => settingsFromEnv({ PETSTORE_GENERATED_EXPLORE: 'maybe' }, bundled(1))).toThrow('PETSTORE_GENERATED_EXPLORE must be 1 or 0, got "maybe"');
  expect(suiteSeed('0.1.0')).not.toBe(suiteSeed('0.2.0'));
  // One seed, the same requests: what makes two runs of one target send the same thing.
  expect(fc.sample(validValue(body), { numRuns: 50, seed: suiteSeed() })).toEqual(fc.sample(validValue(body), { numRuns: 50, seed: suiteSeed() }));
});

test('the input classes every run sends are of the kind they are filed under', () => {
  const categoryId = body.properties!.categoryId!;
  const values = tagged(integerClasses(categoryId)).map(({ value }) => value);
  expect(values).toEqual(expect.arrayContaining([0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n - 5n]));
  expect(STRING_CLASSES.map((item) => item.name)).toEqual(expect.arrayContaining(['empty', 'longest', 'over 100 characters', 'control characters', 'astral characters']));
  const petId = requestShape('getPet').parameters[0]!;
  for (const { value, inputClass } of tagged(integerTextClasses(petId.schema))) {
    expect(classifyRequest({ operation: 'getPet', method: 'GET', path: `/pets/${encodeURIComponent(value)}` }).kind, `${inputClass}: ${value}`).toBe('outside');
  }
  for (const { value, inputClass } of tagged(integerClasses(petId.schema))) {
    expect(classifyRequest({ operation: 'getPet', method: 'GET', path: `/pets/${value}` }).kind, `${inputClass}: ${value}`).toBe('within');
  }
  const [limit, status] = requestShape('listPets').parameters;
  for (const { value } of tagged(integerTextClasses(limit!.schema))) expect(classifyRequest({ operation: 'listPets', method: 'GET', path: `/pets?limit=${encodeURIComponent(value)}` }).kind, value).toBe('outside');
  for (const { value } of tagged(enumTextClasses(['available', 'pending', 'sold']))) expect(classifyRequest({ operation: 'listPets', method: 'GET', path: `/pets?status=${encodeURIComponent(value)}` }).kind, value).toBe('outside');
  expect(status!.name).toBe('status');
});

test('every breach body, examples included, is of the kind its breach judges it by: refused within the contract, the others outside it', () => {
  for (const breach of bodyBreaches(body)) {
    const bodies = [...(breach.examples ?? []), ...fc.sample(breach.body, { numRuns: 50, seed: 3 })];
    for (const generated of bodies) {
      const contentType = generated.contentType === null ? undefined : (generated.contentType ?? 'application/json');
      const kind = classifyRequest({ operation: 'createPet', method: 'POST', path: '/pets', body: generated.text, contentType }).kind;
      expect(kind, `${breach.name}: ${generated.text.slice(0, 120)}`).toBe(breach.expect === 'refused' ? 'within' : 'outside');
    }
  }
  expect(bodyBreaches(body).filter((breach) => (breach.examples ?? []).length > 0).map((breach) => breach.name)).toEqual(['a key special in JavaScript runtimes', 'an integer in another JSON spelling', 'a number JSON does not allow']);
});
