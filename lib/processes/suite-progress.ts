/**
 * The progress file a suite run writes for the process that started it (PETSTORE_PROGRESS_FILE): written by
 * the suite's progress reporter, read by `certify implementations.yaml` to show each run as it goes.
 */
export interface SuiteProgress {
  done: number;
  total: number;
  /** MUST rules a failed test cites or names. */
  failingMust: string[];
  finished: boolean;
}
