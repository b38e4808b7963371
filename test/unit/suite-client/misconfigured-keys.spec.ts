import { expect, test } from '@playwright/test';
import { plans } from '../../../lib/plans.ts';
import { misconfiguredKeysNote } from '../../../specs/reporter/misconfigured-keys.ts';
import { MISCONFIGURED_KEY, misconfiguredAnnotation, parseMisconfiguration, plainlyOtherPlan, watchedPlan, type Misconfiguration } from '../../../specs/support/misconfigured-keys.ts';

const FREE = plans.free.documented!;
const PRO = plans.pro.documented!;

test("a Limit that is another plan's documented quota and none of the key's own names that plan", () => {
  expect(plainlyOtherPlan('free', FREE, '300')).toBe('pro');
  expect(plainlyOtherPlan('free', FREE, '10000')).toBe('pro');
  expect(plainlyOtherPlan('free', FREE, '100000')).toBe('business');
  expect(plainlyOtherPlan('pro', PRO, '60')).toBe('free');
  expect(plainlyOtherPlan('pro', PRO, '1000'), "Free's day and Business's minute alike").toBeDefined();
});

test("a Limit that is the key's own quota, no plan's quota, or no number is no configuration error", () => {
  expect(plainlyOtherPlan('free', FREE, '60')).toBeUndefined();
  expect(plainlyOtherPlan('free', FREE, '1000'), "Free's own day, though it is Business's minute too").toBeUndefined();
  expect(plainlyOtherPlan('free', FREE, '61')).toBeUndefined();
  expect(plainlyOtherPlan('free', FREE, '100')).toBeUndefined();
  expect(plainlyOtherPlan('free', FREE, undefined)).toBeUndefined();
  expect(plainlyOtherPlan('free', FREE, '300, 300;w=60')).toBeUndefined();
  expect(plainlyOtherPlan('enterprise', undefined, '60'), 'an Enterprise quota not agreed may be anything').toBeUndefined();
});

test('a watched key is told once, on the first answer whose Limit is plainly another plan', async () => {
  const found: Misconfiguration[] = [];
  const limits = ['60', '300', '300'];
  const transport = watchedPlan({ send: async () => ({ status: 200, headers: { 'x-ratelimit-limit': limits.shift()! }, body: '[]' }) }, 'free', FREE, 'the 1st key of PETSTORE_API_KEY_FREE', (item) => found.push(item));
  for (let index = 0; index < 3; index++) await transport.send({ method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} });
  expect(found).toEqual([{ name: 'the 1st key of PETSTORE_API_KEY_FREE', plan: 'free', answersAs: 'pro', limit: 300 }]);
});

test('the verdict names each key and the variable to check, once', () => {
  const found: Misconfiguration = { name: 'the 1st key of PETSTORE_API_KEY_FREE', plan: 'free', answersAs: 'pro', limit: 300 };
  expect(parseMisconfiguration(misconfiguredAnnotation(found))).toEqual(found);
  const annotation = { type: MISCONFIGURED_KEY, description: misconfiguredAnnotation(found) };
  expect(misconfiguredKeysNote([annotation, annotation, { type: 'skip', description: 'x' }])).toBe(
    'Likely a configuration error (so the tests of those plans judged nothing on those keys, and no rule failed for it): the 1st key of PETSTORE_API_KEY_FREE answers as a Pro key (X-RateLimit-Limit 300), not as a Free key. Check PETSTORE_API_KEY_FREE, then run again.',
  );
  expect(misconfiguredKeysNote([{ type: 'skip', description: 'x' }])).toBeUndefined();
});
