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

/** What one property of the generated project sent and got (RuleJudge.generated writes it). */
export interface GeneratedSummary {
  property: string;
  /** Within the contract, outside it, at a gap, or a mix ("within or at a gap"). */
  kind: string;
  requests: number;
  /** Requests per input class (input-classes.ts; "seeded random" for the random phase). */
  classes: Record<string, number>;
  /** Requests per answer: a status, with the Error's code for an error. */
  answers: Record<string, number>;
  seed: number;
}

/** A generated property's summary, with the test that ran it and how it ended. */
export interface GeneratedProperty extends GeneratedSummary {
  test: string;
  outcome: TestOutcome;
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
  /** When the test's (latest) attempt started; unset for a test that did not run. */
  startedAt?: string;
  retries: number;
  /** Rules cited, primary first. */
  rules: string[];
  /** IDs cited (by annotation or title) that the catalogue does not know. */
  unknownRules: string[];
  /** The level the title states, when it states one. */
  titleLevel: string | undefined;
  /** Why the test skipped itself: set on a skipped test, and on one that failed on another rule before it skipped. */
  skipReason: string | undefined;
  warnings: RuleNote[];
  observations: RuleNote[];
  /** What the target does where the spec is silent, in a few words (`check.gist`): the matrix's GAP cells. */
  gists: RuleNote[];
  /** Parts of rules the test could not exercise, and why (`check.unchecked`). */
  unchecked: RuleNote[];
  throttled: string[];
  /** What each property of the generated project sent and got ({type: 'generated'} carries it as JSON). */
  generated: GeneratedProperty[];
  failures: Failure[];
  /**
   * The test failed only by findings of the contract check that its own logic does not read (a rate-limit
   * header of some response): it ran through, and its own rules were checked whole.
   */
  ranThrough: boolean;
  /** Rules the failed test judged whole all the same (`check.judgedWhole`): their verdicts stand. */
  judgedWhole: string[];
  evidence: Evidence[];
}

/** A record with nothing reported yet: where the test is, what it cites and how it ended, every note empty. */
export function emptyRecord(
  identity: Pick<TestRecord, 'id' | 'title' | 'fullTitle' | 'file' | 'line' | 'project' | 'outcome' | 'rules' | 'unknownRules' | 'titleLevel' | 'ranThrough'>,
): TestRecord {
  return {
    ...identity,
    durationMs: 0,
    retries: 0,
    skipReason: undefined,
    warnings: [],
    observations: [],
    gists: [],
    unchecked: [],
    throttled: [],
    generated: [],
    failures: [],
    judgedWhole: [],
    evidence: [],
  };
}
