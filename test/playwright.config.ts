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
  // One worker per core: with a third worker, the heavier run (the CI workflow's jobs, the client matrix) starved
  // the timing-sensitive legitimate servers below their windows (two failed in a 16-min run, each passing alone).
  workers: 2,
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
