/**
 * For every MUST rule, a server that breaks it: the conformance suite must fail against it, and fail in the
 * right tests (those that cite or name the broken rule), never elsewhere. Faults that break unrelated rules
 * share a run to keep `npm test` quick; each is judged on its own.
 */
import { expect, test } from '@playwright/test';
import { catalogue } from '../../lib/rules.ts';
import { describeOutcome, runFaultGroup, type FaultGroup } from './support/fault-runs.ts';
import { ENTERPRISE_AGREED_IN_TESTS, FAULTS, faultById } from './support/faults.ts';
import { ruleTitle } from './support/run-suite.ts';
import { recordRows, type FaultRow } from './support/variant-tables.ts';

/**
 * Grouped so that no fault changes what another fault's tests see (an earlier grouping let a refused "sold"
 * break the pet that DEP-1's test looks up). The slowest groups come first, so the two workers finish together.
 */
const GROUPS: readonly FaultGroup[] = [
  {
    name: 'auth-and-shapes',
    faults: ['anonymous-served', 'unknown-key-served', 'other-schemes-served', 'empty-token-served', 'orders-refuse-valid-key', 'sold-refused', 'list-category-as-string', 'reset-wobbles'],
  },
  {
    name: 'lists-and-creates',
    faults: ['limit-plus-one', 'default-page-25', 'status-filter-ignored', 'limit-not-capped', 'created-without-status', 'missing-fields-defaulted', 'invalid-values-coerced', 'bad-body-defaulted', 'duplicate-ids-under-load', 'big-id-collapses'],
    controls: [ruleTitle('LIST-5')],
  },
  {
    name: 'versions-and-windows',
    faults: ['list-wrapped-in-object', 'served-under-v2', 'create-not-deployed', 'refuses-after-retry-after', 'remaining-stuck'],
    // A Remaining that never falls is told apart from a window that filled up again only before the last second
    // of its Reset (whole seconds): of a one-second window that can be almost nothing, and on a loaded machine
    // RL-6's requests then all look like new windows and the test skips. Three-second windows leave two.
    timeScale: 20,
  },
  {
    name: 'gets-and-errors',
    faults: ['get-renames-pet', 'unknown-id-placeholder', 'sunset-wrong-date', 'list-deprecated', 'error-without-message', 'error-status-always-400', 'list-not-json-content-type', 'orders-not-found', 'resets-every-9th-list'],
  },
  {
    name: 'statuses-and-429s',
    faults: ['list-answers-203', 'get-pet-removed', 'no-reset-on-errors', 'business-limit-says-500', '429-without-retry-after', 'retry-after-not-a-delay'],
    // The 429 faults are met by minute-window bursts through the proxy: windows of three seconds leave room.
    timeScale: 20,
  },
  { name: 'plan-minutes', faults: ['free-61-per-minute', 'pro-301-per-minute', 'business-1001-per-minute'], workers: 1 },
  { name: 'plan-days', faults: ['free-1001-per-day', 'pro-below-free-limits'], quotaTests: true },
  // A fresh store, as the bundled server starts with: no fault may hide behind data other tests made.
  { name: 'fresh-store', faults: ['malformed-body-500', 'limit-not-capped', 'get-answers-neighbour', 'list-frozen-at-start'], seedPets: 3 },
  { name: 'fresh-store-pages', faults: ['limit-100-gives-101'], seedPets: 3 },
  { name: 'enterprise-agreed', faults: ['enterprise-over-agreed-minute'], enterpriseQuota: ENTERPRISE_AGREED_IN_TESTS },
  // Servers whose own headers would keep a waiting test waiting for ever: each must fail, within the group's
  // timeout. Only the Free day fits the default quota budget, so each day fault has a run of its own.
  { name: 'hostile-days', faults: ['day-retry-after-one-second'], quotaTests: true },
  { name: 'hostile-days-silent', faults: ['day-429-without-retry-after'], quotaTests: true },
  { name: 'remaining-never-falls', faults: ['remaining-at-limit'] },
  // A countdown that is right step by step, from a limit the server does not keep: only the refusal shows it.
  { name: 'remaining-overstates', faults: ['remaining-overstates'], timeScale: 20 },
  // Faults only generated requests find: the hand-written tests of the same rules run too, and pass.
  {
    name: 'generated-a',
    faults: ['astral-name-500', 'limit-leading-zero-500', 'status-any-case', 'wrapped-id-served'],
    controls: [ruleTitle('CREATE-1', 'a valid NewPet'), ruleTitle('CREATE-3', 'a body with an invalid value'), ruleTitle('LIST-3', 'with limit='), ruleTitle('RESP-1', 'every response status')],
  },
  {
    name: 'generated-b',
    faults: ['category-cut-to-int32', 'duplicate-key-500'],
    controls: [ruleTitle('CREATE-1', 'a valid NewPet'), ruleTitle('CREATE-4'), ruleTitle('RESP-1', 'every response status')],
  },
  {
    name: 'generated-c',
    faults: ['exotic-id-500', 'plain-short-name-refused', 'null-for-repeated-status'],
    controls: [ruleTitle('GET-3', 'generated int64 ids'), ruleTitle('GET-GAP-1'), ruleTitle('RESP-1', 'every response status')],
  },
  // What OWASP's testing guide tries first, and a mock whose lookups answer its example: issue 24.
  {
    name: 'generated-owasp-a',
    faults: ['repeated-query-500', 'prototype-polluted-pet'],
    controls: [ruleTitle('CREATE-1', 'a valid NewPet'), ruleTitle('LIST-3', 'generated valid list queries')],
  },
  {
    name: 'generated-owasp-b',
    faults: ['repeated-status-ignored', 'spelled-integer-dropped'],
    controls: [ruleTitle('CREATE-1', 'a valid NewPet'), ruleTitle('LIST-1')],
  },
  { name: 'static-example-mock', faults: ['static-example-mock'], controls: [ruleTitle('LIST-3', 'generated valid list queries')] },
  // The bundled certification's setting: a fast server clock whose Reset and Retry-After the suite converts.
  // The faults are still caught, and the window rules still hold where the server keeps them.
  {
    name: 'fast-clock',
    faults: ['free-1001-per-day', 'business-1001-per-minute'],
    controls: [ruleTitle('RL-3'), ruleTitle('RL-7'), ruleTitle('PLAN-PRO', 'a Pro key is admitted exactly')],
    quotaTests: true,
    clockRate: 120,
    workers: 1,
  },
];

test('every MUST rule of the service has a broken server, and every broken server runs', () => {
  const grouped = new Set(GROUPS.flatMap((group) => group.faults));
  const broken = new Set([...grouped].map((id) => faultById(id).rule));
  const unbroken = catalogue.rules.filter((rule) => rule.level === 'MUST' && rule.subject === 'service' && !broken.has(rule.id)).map((rule) => rule.id);
  expect(unbroken, 'MUST rules without a broken server in test/suite/support/faults.ts').toEqual([]);
  expect(FAULTS.map((fault) => fault.id).filter((id) => !grouped.has(id)), 'faults defined but never run').toEqual([]);
});

for (const group of GROUPS) {
  const rules = group.faults.map((id) => faultById(id).rule).join(', ');
  test(`broken server "${group.name}" (${rules}): each fault fails the suite in the tests of its rule, and only there`, async ({}, testInfo) => {
    test.setTimeout(240_000);
    const outcome = await runFaultGroup(group);
    const ranAt = new Date().toISOString();
    const rows: FaultRow[] = outcome.outcomes.map(({ fault, caughtBy }) => ({
      rule: fault.rule,
      fault: fault.id,
      description: fault.description,
      group: group.name,
      caught: caughtBy.length > 0,
      caughtBy: caughtBy.map((caught) => caught.title),
      alsoBreaks: fault.alsoBreaks ?? [],
      runSeconds: outcome.run.durationMs / 1000,
      ranAt,
    }));
    const table = recordRows('faults', group.name, rows);
    await testInfo.attach(`faults-${group.name}.md`, { body: table, contentType: 'text/markdown' });

    const account = describeOutcome(outcome);
    expect(outcome.run.globalErrors, account).toEqual([]);
    const unexercised = outcome.outcomes.filter((item) => item.caughtBy.length === 0 && item.partlyChecked.length > 0);
    expect(unexercised.map((item) => `${item.fault.rule} ${item.fault.id}`), `the run left these faults' rules partly checked: not exercised, so neither caught nor passed\n${account}`).toEqual([]);
    expect(outcome.outcomes.filter((item) => item.caughtBy.length === 0).map((item) => `${item.fault.rule} ${item.fault.id}`), account).toEqual([]);
    expect(outcome.wrongFailures.map((item) => `${item.test.title}: ${item.why}`), account).toEqual([]);
    expect(outcome.failedControls.map((item) => item.title), account).toEqual([]);
    expect(outcome.run.exitCode, `the suite must exit non-zero against a broken server\n${account}`).not.toBe(0);
  });
}
