/**
 * The implementations matrix (reports/certify/matrix.json): one column per implementation, one row per rule
 * of fixtures/rules.yaml, built from each implementation's own conformance.json. The HTML page and the
 * badges are drawn from this shape alone.
 */
import type { Level } from '../lib/rules.ts';
import type { RuleVerdict, RunState } from '../lib/verdicts/model.ts';
import type { Provenance } from '../lib/verdicts/provenance.ts';

/** `no-report`: the implementation could not be certified at all (it did not start, its URL did not answer). */
export type CellVerdict = RuleVerdict | 'no-report';

export interface MustTally {
  /** MUST rules that bind this run and held (verdict pass). */
  held: number;
  /** MUST rules that bind this run and were checked (pass, fail or partly checked). */
  checked: number;
  /** MUST rules that bind this run. */
  total: number;
}

export interface RuleChange {
  rule: string;
  before: string;
  after: string;
}

/** What changed since the baseline run, for one implementation. */
export interface BaselineChanges {
  /** Rules that passed (or warned no worse) then and fail or warn now. */
  regressed: RuleChange[];
  /** Rules that failed or warned then and pass now. */
  nowPass: RuleChange[];
  /** GAP rules whose observed behaviour (the cell's gist) differs. */
  gapChanged: RuleChange[];
  /** The baseline had no column for this implementation. */
  newImplementation: boolean;
}

export interface ExpectationOutcome {
  /** The expectations file, relative to the implementations file's folder; undefined when the entry has none. */
  file?: string;
  /** Failures the file lists, with their reasons. */
  expectedFailures: Array<{ rule: string; reason: string; link?: string }>;
  /** Rules that failed (or MUST rules that warned) without being expected: regressions. */
  unexpectedFailures: string[];
  /** Rules listed as expected failures that did not fail: remove them from the file. */
  unexpectedPasses: string[];
}

export interface MatrixImplementation {
  name: string;
  /** Version or commit label from the implementations file. */
  version?: string;
  /** How it was reached: its base URL (keys never appear), or "started: <first word of the command>". */
  target: string;
  /** undefined when it could not be certified; `problem` then says why. */
  state?: RunState;
  /** "Conforming", "Not conforming", "Not certified", or "Could not certify". */
  verdictLabel: string;
  headline: string;
  problem?: string;
  must?: MustTally;
  /** When its run made a certificate (certify --evidence, --out-of-scope): how old its evidence, what it left out. */
  provenance?: Provenance;
  startedAt?: string;
  durationMs?: number;
  /** Relative to reports/certify/: <name>/index.html, the implementation's conformance report. */
  reportHref?: string;
  /** Relative to reports/certify/: <name>/badge.svg. */
  badgeHref: string;
  expectations: ExpectationOutcome;
  changes?: BaselineChanges;
}

export interface MatrixCell {
  verdict: CellVerdict;
  /** For a GAP rule: what this implementation does, in a few words ("fixed windows", "ids ascending"). */
  gist?: string;
  /** The longer observations or failure messages behind the cell, for a tooltip. */
  detail?: string;
  /** The rule is in the implementation's expectations file. */
  expectedFailure?: boolean;
  /** Relative to reports/certify/: the rule's row in the implementation's report (<name>/index.html#rule-ID). */
  href?: string;
}

export interface MatrixRow {
  id: string;
  level: Level;
  section: string;
  rule: string;
  /** For a GAP rule: what the spec leaves open. */
  silent?: string;
  /** One per implementation, in the order of `implementations`. */
  cells: MatrixCell[];
  /**
   * MUST/SHOULD: implementations that were checked on this rule got different verdicts (pass vs fail or warn).
   * GAP: their gists differ. Rows a reviewer may filter to.
   */
  disagreement: boolean;
}

export interface Matrix {
  format: 'petstore-matrix';
  formatVersion: 1;
  generatedAt: string;
  specVersion: string;
  suiteVersion: string;
  rulesHash: string;
  /** Section titles in the order of fixtures/rules.yaml. */
  sections: string[];
  implementations: MatrixImplementation[];
  rows: MatrixRow[];
  /** The baseline file the changes were computed against, when one was given. */
  baseline?: string;
  /** True when every implementation was certified and its failures equal its expectations. */
  asExpected: boolean;
}
