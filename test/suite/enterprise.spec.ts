/**
 * Enterprise quotas are agreed individually: stated to the run, they are certified as strictly as a documented
 * plan's (a server that exceeds them fails: test/suite/broken-servers.spec.ts, "enterprise-agreed"); unstated,
 * the rule that holds a key to them does not apply and costs no verdict.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { PLAYWRIGHT_CLI, REPO_ROOT } from '../fixtures/listed-tests.ts';
import { ENTERPRISE_AGREED_IN_TESTS } from './support/faults.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { agreedEnterpriseEnv, startVariant } from './support/variant-target.ts';

test('an Enterprise key held to its agreed quota passes the minute and daily tests of PLAN-ENTERPRISE-AGREED', async () => {
  test.setTimeout(120_000);
  const target = await startVariant({ enterpriseQuota: ENTERPRISE_AGREED_IN_TESTS });
  try {
    const run = await runSuite({
      label: 'enterprise-agreed',
      baseUrl: target.baseUrl,
      titles: [ruleTitle('PLAN-ENTERPRISE-AGREED')],
      quotaTests: true,
      env: agreedEnterpriseEnv(ENTERPRISE_AGREED_IN_TESTS),
    });
    expect(run.tests.map((t) => `${t.title}: ${t.status}`)).toEqual([
      expect.stringMatching(/^PLAN-ENTERPRISE-AGREED MUST an Enterprise key is admitted at most .*: passed$/),
      expect.stringMatching(/^PLAN-ENTERPRISE-AGREED MUST an Enterprise key is admitted exactly .*: passed$/),
    ].sort());
    expect(run.tests.filter(failed)).toEqual([]);
  } finally {
    await target.close();
  }
});

test('a wrong agreed quota is one line and exit code 2', async () => {
  const { code, stderr } = await promisify(execFile)(process.execPath, [PLAYWRIGHT_CLI, 'test', '--list'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PETSTORE_ENTERPRISE_PER_MINUTE: '5k', PETSTORE_ENTERPRISE_PER_DAY: '500000' },
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
  );
  expect(code).toBe(2);
  expect(stderr.trim()).toBe('petstore-conformance certify: PETSTORE_ENTERPRISE_PER_MINUTE must be a whole number of requests such as 5000, got "5k"');
});
