/** The tests of the suite and of the project's own config, listed once per docs:reference run (a listing takes seconds). */
import { listTests, type ListedTest } from '../../test/fixtures/listed-tests.ts';

let suite: Promise<ListedTest[]> | undefined;
let own: Promise<ListedTest[]> | undefined;

/** The conformance suite's tests (playwright.config.ts). */
export function suiteTests(): Promise<ListedTest[]> {
  return (suite ??= listTests(['-c', 'playwright.config.ts']));
}

/** The project's own tests (test/playwright.config.ts): broken servers, legitimate variants, self-tests. */
export function ownTests(): Promise<ListedTest[]> {
  return (own ??= listTests(['-c', 'test/playwright.config.ts']));
}
