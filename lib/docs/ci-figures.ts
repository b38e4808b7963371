/**
 * The figures the manual, the Action and the example workflow state about running the suite, written once:
 * README.md and docs/ take them as generated numbers (scripts/docs/facts.ts), and test/docs/ci-figures.spec.ts
 * holds action.yml, the workflow, the scripts and the code blocks of docs/ (where a generated number cannot
 * stand) to them.
 */

/**
 * The nightly job's quota budget: Business's day is 100 minute windows, about 115 minutes at real time with
 * the rest of the suite beside it; 7,800 s (130 minutes) lets every plan's day be spent with a margin.
 */
export const NIGHTLY_QUOTA_BUDGET_SECONDS = 7_800;
/** The nightly run's own bound (PETSTORE_RUN_TIMEOUT_SECONDS): past the budget, so the run ends with a verdict before the job's timeout-minutes. */
export const NIGHTLY_RUN_TIMEOUT_SECONDS = 8_400;

/**
 * `time npm run conformance` against the bundled server, as docs/benchmarks.md measured it on the project's
 * 2-core machine: quiet, and ten runs while `npm test` ran beside it.
 */
export const BUNDLED_RUN_MEASURED = {
  quietSeconds: 23,
  busySeconds: { least: 27.5, most: 31.6 },
  busyLoadAverage: { least: 5.1, most: 6.7 },
} as const;
