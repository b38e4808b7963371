import { defineConfig } from '@playwright/test';

/**
 * A tiny stand-in for the conformance suite whose outcomes are known in advance (a failure, a failure named by
 * a contract check, a warning, an observation, skips, throttling, evidence with a key in it), so the
 * conformance reporter can be checked rule by rule, live and through merge-reports of sharded blobs.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.sample.ts',
  workers: 1,
  fullyParallel: true,
  reporter: [['../../../specs/reporter/conformance-reporter.ts', { outputFolder: process.env.SAMPLE_REPORT_DIR ?? 'report', announce: false }]],
  outputDir: process.env.SAMPLE_RESULTS_DIR ?? 'test-results',
  metadata: {
    targetUrl: 'http://127.0.0.1:9/v1',
    bundled: false,
    readOnly: true,
    quotaTests: false,
    suiteVersion: '0.0.0-sample',
    specVersion: '1.0.0',
    gitCommit: 'sample',
    rulesHash: 'sample-hash',
  },
});
