/** The request generators agree with the contract they are built from: what they call valid is, what they call refused is not. */
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { requestShape, schemaProblems } from '../../../lib/contract.ts';
import { parseLossless } from '../../../lib/lossless-json.ts';
import { bodyBreaches } from '../../../specs/support/generated/invalid-bodies.ts';
import { validValue } from '../../../specs/support/generated/valid-values.ts';

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
