/** The request generators agree with the contract they are built from: what they call valid is, what they call refused is not. */
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { requestShape, schemaProblems } from '../../../lib/contract.ts';
import { parseLossless } from '../../../lib/lossless-json.ts';
import { invalidBodies } from '../../../specs/support/generated/invalid-bodies.ts';
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

test('every body generated as refused is not JSON or not a valid NewPet', () => {
  for (const generated of fc.sample(invalidBodies(body), { numRuns: 2_000, seed: 2 })) {
    if (generated.expect !== 'refused') continue;
    let problems: string[];
    try {
      problems = schemaProblems('NewPet', parseLossless(generated.text));
    } catch {
      continue;
    }
    expect(problems.length, `${generated.why}: ${generated.text}`).toBeGreaterThan(0);
  }
});

test('the breaches cover each way the contract names, for each field', () => {
  const whys = fc.sample(invalidBodies(body), { numRuns: 3_000, seed: 3 }).map((generated) => generated.why);
  for (const expected of [/^required field name left out$/, /^required field categoryId left out$/, /^status: "Available"/, /^categoryId: 9223372036854775808, outside/, /^name: the number/, /not an object$/, /^JSON cut after/, /^a field given twice$/]) {
    expect(whys.some((why) => expected.test(why)), String(expected)).toBe(true);
  }
});
