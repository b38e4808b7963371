import { expect, test } from '@playwright/test';
import { isIncidental } from '../../../specs/support/incidental-findings.ts';

test('a rate-limit header or an Error status found wrong by the contract check leaves only the tests that read them unjudged', () => {
  expect(isIncidental('RL-7', ['LIST-1']), 'a list test reads no header').toBe(true);
  expect(isIncidental('RL-7', ['PLAN-FREE', 'RL-1']), 'a quota test says itself what it judged whole').toBe(false);
  expect(isIncidental('ERR-2', ['AUTH-1']), "a 401 test reads the status code, not the Error's status field").toBe(true);
  expect(isIncidental('ERR-2', ['ERR-2'])).toBe(false);
  expect(isIncidental('ERR-1', ['AUTH-1']), 'the Error shape is what an error test reads').toBe(false);
});
