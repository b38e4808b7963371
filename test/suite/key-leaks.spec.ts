/**
 * No API key leaves the suite: not in a report, a result, an attachment or a trace, and not to a host a target
 * redirects to. Keys are made up for the run (canaries), so any trace of one is a leak, however it got there.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KEYS, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { REPO_ROOT } from '../fixtures/listed-tests.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { findSecrets } from './support/find-secrets.ts';
import { failed, ruleTitle, runSuite, VARIANTS_OUTPUT } from './support/run-suite.ts';
import { VARIANT_TIME_SCALE } from './support/variant-target.ts';

const DEMO = PLAN_IDS.flatMap((plan) => DEMO_KEYS[plan]);
/** What the scan reads: everything a run writes, but the project's own test output, which quotes test sources. */
const WRITTEN = [path.join(REPO_ROOT, 'reports'), path.join(REPO_ROOT, 'test-results'), path.join(REPO_ROOT, 'playwright-report'), path.join(REPO_ROOT, 'blob-report')];
const NOT_PRODUCTS = ['own-tests', 'own-tests-quick', 'own-tests-field'];

function canaryKeys(): KeysByPlan {
  const keys = {} as KeysByPlan;
  for (const plan of PLAN_IDS) keys[plan] = [1, 2, 3].map((n) => `canary-${plan}-${n}-${randomBytes(6).toString('hex')}`);
  return keys;
}

const allKeys = (keys: KeysByPlan): string[] => PLAN_IDS.flatMap((plan) => keys[plan]);

test('no key appears in any report, result or attachment of a full run against a target', async () => {
  test.setTimeout(240_000);
  const keys = canaryKeys();
  const server = await spawnReferenceServer({
    env: { PETSTORE_TIME_SCALE: String(VARIANT_TIME_SCALE), ...Object.fromEntries(PLAN_IDS.map((plan) => [`PETSTORE_API_KEY_${plan.toUpperCase()}`, keys[plan].join(',')])) },
  });
  let run;
  try {
    run = await runSuite({ label: 'key-leaks-target', baseUrl: server.baseUrl, keys, allReporters: true });
  } finally {
    await server.stop();
  }
  expect(run.tests.filter((t) => t.status === 'passed').length, 'the run must have talked to the target with the keys').toBeGreaterThan(50);
  const ownFolder = path.join(VARIANTS_OUTPUT, 'key-leaks-target');
  for (const file of ['results.json', 'reports/index.html', 'reports/conformance.json', 'reports/junit.xml', 'reports/playwright/index.html']) {
    expect(existsSync(path.join(ownFolder, file)), `the run wrote ${file}`).toBe(true);
  }
  // The canaries exist only in this run, so they are looked for everywhere; the public demo keys in this run's output.
  const canaries = findSecrets(WRITTEN, allKeys(keys), NOT_PRODUCTS);
  const demo = findSecrets([ownFolder], DEMO);
  expect(canaries.filesRead).toBeGreaterThan(10);
  expect([...canaries.findings, ...demo.findings].map((finding) => `${finding.where}: ${finding.secret.replace(/-[0-9a-f]{12}$/, '-…')}`)).toEqual([]);
});

test('no demo key appears in any report of a run against the bundled server', async () => {
  test.setTimeout(120_000);
  // A few tests are enough: what a bundled run writes about its configuration does not depend on which ran.
  const run = await runSuite({ label: 'key-leaks-bundled', titles: [ruleTitle('LIST-5'), ruleTitle('AUTH-2', '.*: listPets$')], allReporters: true });
  expect(run.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
  const { findings } = findSecrets([path.join(VARIANTS_OUTPUT, 'key-leaks-bundled')], DEMO);
  expect(findings.map((finding) => `${finding.where}: ${finding.secret}`)).toEqual([]);
});

test('a target that redirects to another port never receives the key there', async () => {
  test.setTimeout(120_000);
  const keys = canaryKeys();
  const received: Array<{ url: string; authorization: string | undefined }> = [];
  const collector = http.createServer((request, response) => {
    received.push({ url: request.url ?? '', authorization: request.headers.authorization });
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const elsewhere = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  let redirects = 0;
  // Nothing behind the redirects: every request is answered with 307 or 302 to the collector.
  const target = await startFaultProxy('http://127.0.0.1:9/v1', {
    request: (request) => ({ status: redirects++ % 2 === 0 ? 307 : 302, headers: { location: `${elsewhere}${request.path}` }, body: '' }),
  });
  let run;
  try {
    run = await runSuite({
      label: 'key-leaks-redirect',
      baseUrl: target.baseUrl,
      keys,
      // Both transports: Playwright's request (functional tests) and fetch (the rate-limit measurements).
      titles: [ruleTitle('LIST-5'), ruleTitle('CREATE-1'), ruleTitle('ORD-1'), ruleTitle('AUTH-5', '.*: getPet$'), ruleTitle('PLAN-FREE', 'a Free key is admitted exactly'), ruleTitle('RL-8')],
    });
  } finally {
    await target.close();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  }
  expect(redirects, 'the suite reached the redirecting target').toBeGreaterThan(3);
  const leaked = received.filter((request) => allKeys(keys).some((key) => request.authorization?.includes(key) || request.url.includes(key)));
  expect(leaked, 'requests that carried a key to the host redirected to').toEqual([]);
  expect(run.tests.filter(failed).map((t) => t.namedRules).flat(), 'a redirect is no documented answer: the suite fails it').toContain('RESP-1');
});
