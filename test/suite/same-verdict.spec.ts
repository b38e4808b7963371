/**
 * Same target, same verdict: the generated project run twice against one server broken only on unusual inputs
 * sends the same input classes and fails the same tests both times. The whole suite ten times over, against a
 * legitimate server and this broken one, is `npm run verdicts:repeat` (too long for npm test).
 */
import { expect, test } from '@playwright/test';
import { REPEAT_SERVERS, repeatRuns } from './support/repeat-runs.ts';

test('two runs of the generated project against one broken server send the same requests and get the same verdict', async () => {
  test.setTimeout(240_000);
  const [first, second] = await repeatRuns(REPEAT_SERVERS.broken, 2, { label: 'same-verdict-generated', project: 'generated' });
  expect(first!.failedTests.length, 'the broken server fails the generated project').toBeGreaterThan(0);
  expect(first!.headline).toMatch(/^Not conforming/);
  expect(second!.headline).toBe(first!.headline);
  expect(second!.failedTests).toEqual(first!.failedTests);
  expect(second!.generatedClasses).toBe(first!.generatedClasses);
});
