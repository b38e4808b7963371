import { expect, test } from '@playwright/test';
import { agreedEnterpriseQuota } from '../../../lib/plans.ts';

test('the agreed Enterprise quota is read from both variables, or is absent', () => {
  expect(agreedEnterpriseQuota({})).toBeUndefined();
  expect(agreedEnterpriseQuota({ PETSTORE_ENTERPRISE_PER_MINUTE: '5000', PETSTORE_ENTERPRISE_PER_DAY: ' 500000 ' })).toEqual({ perMinute: 5000, perDay: 500000 });
});

test('a half-stated or malformed agreed quota is refused, naming the variable', () => {
  expect(() => agreedEnterpriseQuota({ PETSTORE_ENTERPRISE_PER_MINUTE: '5000' })).toThrow('set both, or neither');
  expect(() => agreedEnterpriseQuota({ PETSTORE_ENTERPRISE_PER_MINUTE: '0', PETSTORE_ENTERPRISE_PER_DAY: '10' })).toThrow('PETSTORE_ENTERPRISE_PER_MINUTE must be a whole number');
  expect(() => agreedEnterpriseQuota({ PETSTORE_ENTERPRISE_PER_MINUTE: '10', PETSTORE_ENTERPRISE_PER_DAY: '1e6' })).toThrow('PETSTORE_ENTERPRISE_PER_DAY must be a whole number');
  expect(() => agreedEnterpriseQuota({ PETSTORE_ENTERPRISE_PER_MINUTE: '100', PETSTORE_ENTERPRISE_PER_DAY: '10' })).toThrow('fewer requests a day');
});
