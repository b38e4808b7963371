import { defineConfig } from '@playwright/test';

/** The suite's measuring burst as a benchmark (npm run bench:suite): a Playwright test, so the burst runs with the suite's own judge. */
export default defineConfig({
  testDir: '.',
  testMatch: 'burst.bench.ts',
  workers: 1,
  timeout: 300_000,
  reporter: 'line',
  outputDir: '../../test-results/bench-suite',
});
