/**
 * Same target, same verdict: the generated properties of ids, names and list queries, run twice against one
 * server broken only on unusual inputs, send the same input classes and fail the same tests both times. The whole suite ten times over, against a
 * legitimate server and this broken one, is `npm run verdicts:repeat` (too long for npm test).
 */
import { expect, test } from '@playwright/test';
import { REPEAT_SERVERS, repeatRuns } from './support/repeat-runs.ts';
import { ruleTitle } from './support/run-suite.ts';

/** The properties the broken server's faults meet, and two it passes. */
const PROPERTIES = [ruleTitle('CREATE-1', 'generated'), ruleTitle('GET-3', 'generated'), ruleTitle('RESP-1', 'generated (petIds|list queries)'), ruleTitle('LIST-3', 'generated')];

test('two runs of generated properties against one broken server send the same requests and get the same verdict', async () => {
  test.setTimeout(240_000);
  const [first, second] = await repeatRuns(REPEAT_SERVERS.broken, 2, { label: 'same-verdict-generated', project: 'generated', titles: PROPERTIES });
  expect(first!.failedTests.length, 'the broken server fails the generated properties').toBe(2);
  expect(first!.headline).toMatch(/^Not conforming: 3 MUST rules fail/);
  expect(second!.headline).toBe(first!.headline);
  expect(second!.failedTests).toEqual(first!.failedTests);
  expect(second!.generatedClasses).toBe(first!.generatedClasses);
});
