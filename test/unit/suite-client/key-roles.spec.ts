import { expect, test } from '@playwright/test';
import { DEMO_KEYS, type KeysByPlan } from '../../../lib/keys.ts';
import { keyRoles } from '../../../specs/support/key-roles.ts';

const keys = (given: Partial<KeysByPlan>): KeysByPlan => ({ free: [], pro: [], business: [], enterprise: [], ...given });

test('the demo keys: functional tests share the first Enterprise key, daily tests use each plan\'s last key, measurements the rest', () => {
  const roles = keyRoles(DEMO_KEYS);
  expect(roles.functional).toEqual({ key: 'demo-enterprise-1', plan: 'enterprise' });
  expect(roles.daily.free).toEqual({ key: 'demo-free-3' });
  expect(roles.measuring.free).toEqual(['demo-free-1', 'demo-free-2']);
});

test('one Free key and nothing else: functional tests and measurements share it, and no daily test may use it up', () => {
  const roles = keyRoles(keys({ free: ['f1'] }));
  expect(roles.functional).toEqual({ key: 'f1', plan: 'free' });
  expect(roles.measuring.free).toEqual(['f1']);
  expect(roles.daily.free).toEqual({ unavailable: expect.stringContaining('add a second key to PETSTORE_API_KEY_FREE') });
});

test('two Free keys beside a Pro key: the Pro key is functional, one Free key measures and the other is used up', () => {
  const roles = keyRoles(keys({ free: ['f1', 'f2'], pro: ['p1'] }));
  expect(roles.functional?.key).toBe('p1');
  expect(roles.measuring.free).toEqual(['f1']);
  expect(roles.daily.free).toEqual({ key: 'f2' });
  expect(roles.measuring.pro).toEqual(['p1']);
  expect(roles.daily.pro).toEqual({ unavailable: expect.stringContaining('PETSTORE_API_KEY_PRO') });
});

test('a single key of a lower plan is both measured and used up, so measurements may find its day gone', () => {
  const roles = keyRoles(keys({ free: ['f1'], business: ['b1'] }));
  expect(roles.daily.free).toEqual({ key: 'f1' });
  expect(roles.measuring.free).toEqual(['f1']);
});

test('a plan without keys names the variable to set', () => {
  expect(keyRoles(keys({ free: ['f1'] })).daily.business).toEqual({ unavailable: 'set PETSTORE_API_KEY_BUSINESS to run this' });
  expect(keyRoles(keys({})).functional).toBeUndefined();
});
