import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { tierFromEnv, tierSelection, type Tier } from './tiers.ts';

const [tier, selection] = tierOrExit();
const reportName = tier === 'all' ? 'own-tests' : `own-tests-${tier}`;

// The tests start the suite as a child once per broken or legitimate server, and that run starts a fresh Playwright
// worker after each test that fails (as most do against a broken server): every one compiles the same modules again.
// Node keeps their compiled code here for every process started from now on (a tenth of a broken server's CPU).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'petstore-own-tests-compile-cache');

/**
 * The project's own tests: the quick tier in `npm test` (test:own), the field tier in `npm run test:field`
 * (test/tiers.ts). The conformance suite itself has its own config at the repository root, because that one is
 * the product: `npm run conformance`.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // One worker per core: most tests run the suite as a child, which keeps both cores busy; a third worker starved
  // the timing-sensitive legitimate servers below their windows (two failed in a 16-min run, each passing alone).
  workers: 2,
  timeout: 120_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: `../reports/${reportName}/junit.xml` }]] : 'list',
  outputDir: `../test-results/${reportName}`,
  projects: [
    { name: 'unit', testDir: 'unit', ...selection },
    { name: 'server', testDir: 'server', ...selection },
    { name: 'suite', testDir: 'suite', ...selection },
    { name: 'load', testDir: 'load', ...selection },
    { name: 'replay', testDir: 'replay', ...selection },
    { name: 'judge', testDir: 'judge', ...selection },
    { name: 'clients', testDir: 'clients', ...selection },
    { name: 'watch', testDir: 'watch', ...selection },
    { name: 'fixtures', testDir: 'fixtures', ...selection },
    { name: 'package', testDir: 'package', ...selection },
    { name: 'matrix', testDir: 'matrix', ...selection },
    { name: 'docs', testDir: 'docs', ...selection },
  ],
});

/** A tier misspelt, or a field test moved without test/tiers.ts: one line, not a stack trace. */
function tierOrExit(): [Tier, ReturnType<typeof tierSelection>] {
  try {
    const chosen = tierFromEnv(process.env.PETSTORE_OWN_TESTS);
    return [chosen, tierSelection(chosen)];
  } catch (error) {
    process.stderr.write(`test:own: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
