/**
 * What the conformance reporter records of one test: the shape the verdict model judges, whoever builds it
 * (the reporter from Playwright's reporter API, or a test from known outcomes).
 */
export type TestOutcome = 'passed' | 'failed' | 'skipped' | 'interrupted' | 'not-run';

export interface RuleNote {
  rule: string;
  text: string;
}

export interface Failure {
  /** The rules the error names, or the test's primary rule when it names none. */
  rules: string[];
  message: string;
}

export interface Evidence {
  rule: string;
  request?: unknown;
  response?: unknown;
  curl?: string;
}

export interface TestRecord {
  id: string;
  title: string;
  /** describe blocks and title, without project and file. */
  fullTitle: string;
  file: string;
  line: number;
  project: string;
  outcome: TestOutcome;
  durationMs: number;
  retries: number;
  /** Rules cited, primary first. */
  rules: string[];
  /** IDs cited (by annotation or title) that the catalogue does not know. */
  unknownRules: string[];
  /** The level the title states, when it states one. */
  titleLevel: string | undefined;
  skipReason: string | undefined;
  warnings: RuleNote[];
  observations: RuleNote[];
  /** What the target does where the spec is silent, in a few words (`check.gist`): the matrix's GAP cells. */
  gists: RuleNote[];
  /** Parts of rules the test could not exercise, and why (`check.unchecked`). */
  unchecked: RuleNote[];
  throttled: string[];
  failures: Failure[];
  /**
   * The test failed only by findings of the contract check that its own logic does not read (a rate-limit
   * header of some response): it ran through, and its own rules were checked whole.
   */
  ranThrough: boolean;
  evidence: Evidence[];
}
