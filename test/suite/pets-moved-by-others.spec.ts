/**
 * The spec shows no transitions of a pet's status (STATE-GAP-1): another party may sell a pet the suite created at
 * any time. A server whose every created pet is sold the moment its creation is answered passes the suite's GET-1,
 * DEP-1 and LIST-7 tests (the functional ones and the generated sequences), which say the status was not checked
 * and why; behind it, a server that leaves new animals out of its lists still fails LIST-7 where getPet after the
 * list answers the status the list asked for.
 */
import { expect, test } from '@playwright/test';
import { faultById } from './support/faults.ts';
import { soldByAnotherParty } from './support/legitimate-variants.ts';
import { notes } from './support/populated-store.ts';
import { failed, ruleTitle, runSuite, type SuiteRunResult } from './support/run-suite.ts';
import { startVariant, type VariantOptions } from './support/variant-target.ts';

const TITLES = [ruleTitle('GET-1'), ruleTitle('DEP-1'), ruleTitle('LIST-7')];

async function suiteAgainst(label: string, options: VariantOptions): Promise<SuiteRunResult> {
  const target = await startVariant(options);
  try {
    return await runSuite({ label, baseUrl: target.baseUrl, titles: TITLES });
  } finally {
    await target.close();
  }
}

test('every created pet sold by another party at once: GET-1, DEP-1 and LIST-7 pass, GET-1 and the functional LIST-7 partly checked, saying status transitions are a gap of the spec', async () => {
  test.setTimeout(240_000);
  const run = await suiteAgainst('pets-sold-by-another-party', { transforms: [soldByAnotherParty] });
  expect(run.tests.map((each) => each.rules[0]).sort()).toEqual(['DEP-1', 'GET-1', 'LIST-7', 'LIST-7']);
  expect(run.tests.filter(failed).map((each) => `${each.title}: ${each.errors[0]}`)).toEqual([]);
  const get1 = run.tests.find((each) => each.title.startsWith('GET-1'))!;
  const list7 = run.tests.find((each) => each.title.startsWith('LIST-7') && each.title.includes('an animal just created'))!;
  for (const moved of [get1, list7]) expect(notes(moved, 'unchecked').join('\n'), moved.title).toMatch(/status transitions are a gap of the spec \(STATE-GAP-1\)/);
});

test('behind the same sales, a server that never lists an animal created after it started still fails LIST-7: the sold one is left out of the list by sold while getPet answers it sold', async () => {
  test.setTimeout(240_000);
  const run = await suiteAgainst('pets-sold-list-frozen', { transforms: [faultById('list-frozen-at-start').proxy!, soldByAnotherParty] });
  const list7 = run.tests.find((each) => each.title.startsWith('LIST-7') && each.title.includes('an animal just created'))!;
  expect(list7.status).toBe('failed');
  expect(list7.errors.join('\n')).toContain('created sold, in the list of');
  expect(list7.errors.join('\n')).toContain('getPet after the list still answers it sold');
});
