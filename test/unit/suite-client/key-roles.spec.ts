import { expect, test } from '@playwright/test';
import { DEMO_KEYS, type KeysByPlan } from '../../../lib/keys.ts';
import { keyRoles, plansSpendingADayLast } from '../../../specs/support/key-roles.ts';

const keys = (given: Partial<KeysByPlan>): KeysByPlan => ({ free: [], pro: [], business: [], enterprise: [], ...given });
const QUOTA_TESTS = { quotaTests: true };

test("the demo keys: functional tests share the first Enterprise key, daily tests use each plan's last key, measurements the rest", () => {
  const roles = keyRoles(DEMO_KEYS, QUOTA_TESTS);
  expect(roles.functional).toEqual({ key: 'demo-enterprise-1', plan: 'enterprise' });
  expect(roles.daily.free).toEqual({ key: 'demo-free-3', shared: false });
  expect(roles.measuring.free).toEqual(['demo-free-1', 'demo-free-2']);
  expect(plansSpendingADayLast(DEMO_KEYS, true), 'no daily key serves another test: every day is spent from the start').toEqual([]);
});

test('without the quota tests no day is spent, so every key of a plan measures', () => {
  const roles = keyRoles(DEMO_KEYS, { quotaTests: false });
  expect(roles.measuring.free).toEqual(['demo-free-1', 'demo-free-2', 'demo-free-3']);
  expect(roles.measuring.enterprise).toEqual(['demo-enterprise-2', 'demo-enterprise-3', 'demo-enterprise-1']);
  expect(plansSpendingADayLast(DEMO_KEYS, false)).toEqual([]);
});

test('one key per plan: each daily key also measures (the highest is the functional key), so every day is spent last', () => {
  const given = keys({ free: ['f1'], pro: ['p1'], business: ['b1'] });
  const roles = keyRoles(given, QUOTA_TESTS);
  expect(roles.functional).toEqual({ key: 'b1', plan: 'business' });
  expect(roles.daily.free).toEqual({ key: 'f1', shared: true });
  expect(roles.measuring.free).toEqual(['f1']);
  expect(roles.daily.business).toEqual({ key: 'b1', shared: true });
  expect(plansSpendingADayLast(given, true)).toEqual(['free', 'pro', 'business']);
});

test('two Free keys beside a Pro key: the Pro key is functional, one Free key measures and the other is used up from the start', () => {
  const given = keys({ free: ['f1', 'f2'], pro: ['p1'] });
  const roles = keyRoles(given, QUOTA_TESTS);
  expect(roles.functional?.key).toBe('p1');
  expect(roles.measuring.free).toEqual(['f1']);
  expect(roles.daily.free).toEqual({ key: 'f2', shared: false });
  expect(roles.measuring.pro).toEqual(['p1']);
  expect(roles.daily.pro).toEqual({ key: 'p1', shared: true });
  expect(plansSpendingADayLast(given, true)).toEqual(['pro']);
});

test('a plan without keys names the variable to set', () => {
  expect(keyRoles(keys({ free: ['f1'] }), QUOTA_TESTS).daily.business).toEqual({ unavailable: 'set PETSTORE_API_KEY_BUSINESS to run this' });
  expect(keyRoles(keys({}), QUOTA_TESTS).functional).toBeUndefined();
});
