import { defineConfig } from '@playwright/test';

/**
 * The project's own tests (npm run test:own). The conformance suite itself has its own config at the
 * repository root, because that one is the product: `npm run conformance`.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A third of the run waits on rate-limit windows, so one worker more than this 2-core machine's cores keeps them
  // busy: 8.4 min against 10.0 with two, every test passing.
  workers: 3,
  timeout: 120_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: '../reports/own-tests/junit.xml' }]] : 'list',
  outputDir: '../test-results/own-tests',
  projects: [
    { name: 'unit', testDir: 'unit' },
    { name: 'server', testDir: 'server' },
    { name: 'suite', testDir: 'suite' },
    { name: 'load', testDir: 'load' },
    { name: 'replay', testDir: 'replay' },
    { name: 'judge', testDir: 'judge' },
    { name: 'clients', testDir: 'clients' },
    { name: 'fixtures', testDir: 'fixtures' },
    { name: 'package', testDir: 'package' },
    { name: 'matrix', testDir: 'matrix' },
    { name: 'docs', testDir: 'docs' },
  ],
});
