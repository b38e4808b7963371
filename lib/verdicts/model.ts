/**
 * From the suite's test records to one verdict per rule of the catalogue and one verdict for the run.
 * A run is conforming at MUST level only when every MUST rule that binds the service was checked and held:
 * a failure makes it non-conforming, a MUST rule skipped or not run makes it incomplete (not certifiable).
 */
import { LEVELS, ruleById, type Level, type Rule, type RulesCatalogue } from '../rules.ts';
import { breachVerdict } from './level.ts';
import { mustStanding, notConformingHeadline, runState, type RunState } from './must-rows.ts';
import type { Evidence, GeneratedProperty, TestOutcome, TestRecord } from './test-record.ts';

/** `partly-checked`: the rule held wherever it was checked, but part of it was not (a test skipped, a case the run could not exercise). */
export const VERDICTS = ['pass', 'fail', 'warn', 'partly-checked', 'observed', 'skipped', 'not-run'] as const;
export type RuleVerdict = (typeof VERDICTS)[number];
export type VerdictCounts = Record<RuleVerdict, number>;

export interface RuleTest {
  title: string;
  file: string;
  line: number;
  project: string;
  outcome: TestOutcome;
  /** Whether the test cites the rule, or only named it in a failure or warning (a shared contract check). */
  cites: boolean;
}

export interface TestNote {
  test: string;
  text: string;
}

export interface RuleRow {
  id: string;
  level: Level;
  section: string;
  subject: Rule['subject'];
  rule: string;
  silent?: string;
  verdict: RuleVerdict;
  /** False for a rule that binds only under a condition this run did not meet (appliesWhen); it counts in no verdict. */
  applies: boolean;
  /** Why a rule was skipped or not run, or what blocked it. */
  reason?: string;
  tests: RuleTest[];
  failures: TestNote[];
  warnings: TestNote[];
  observations: TestNote[];
  /** What the target does where the spec is silent, in a few words, one per test that said. */
  gists: TestNote[];
  /** Tests of this rule that were skipped while others ran. */
  skippedTests: TestNote[];
  /** Parts of the rule that tests which ran could not exercise, and why. */
  unchecked: TestNote[];
  evidence: Array<Evidence & { test: string }>;
  throttledTests: number;
}

export interface RunInfo {
  status: 'passed' | 'failed' | 'timedout' | 'interrupted';
  startedAt: string;
  durationMs: number;
  generatedAt: string;
}

export interface RunMetadata {
  targetUrl: string;
  bundled: boolean;
  readOnly: boolean;
  quotaTests: boolean;
  suiteVersion: string;
  specVersion: string;
  gitCommit: string;
  rulesHash: string;
  /** The Enterprise quota the run held Enterprise keys to ("5,000/min, 500,000/day"), when one was agreed. */
  enterpriseQuota?: string;
}

export type { RunState } from './must-rows.ts';

export interface RunVerdict {
  state: RunState;
  conforming: boolean;
  headline: string;
  failedMust: string[];
  skippedMust: Array<{ rule: string; reason: string }>;
  /** MUST rules that held where checked but were not checked whole: what was left out, and the setting that would check it. */
  partlyCheckedMust: Array<{ rule: string; reason: string; setting?: string }>;
  partiallySkipped: Array<{ rule: string; tests: TestNote[] }>;
  warnedShould: string[];
  notes: string[];
}

export interface ConformanceReport {
  format: 'petstore-conformance-report';
  formatVersion: 1;
  target: { url: string; bundled: boolean; readOnly: boolean; quotaTests: boolean };
  generatedAt: string;
  suiteVersion: string;
  specVersion: string;
  gitCommit: string;
  rulesHash: string;
  run: RunInfo;
  verdict: RunVerdict;
  counts: {
    rules: VerdictCounts;
    byLevel: Record<Level, VerdictCounts>;
    bySection: Record<string, VerdictCounts>;
    tests: Record<TestOutcome, number> & { total: number };
    throttledTests: number;
  };
  throttling: TestNote[];
  /** Each generated property: its kind of request, how many it sent, from which input classes, and what the target answered. */
  generated: GeneratedProperty[];
  rules: RuleRow[];
  /** Tests that break the suite's own protocol: unknown rule IDs, a title level that is not the rule's. */
  problems: string[];
  /** certify-client's report only: what the client waited after each 429, per key. */
  clientWaits?: ClientWaits[];
}

/** One key's first 429s of a certify-client run, in order: what each asked, and how long until the key's next request. */
export interface ClientWaits {
  key: string;
  waits: RefusalWait[];
}

export interface RefusalWait {
  /** The 429 by its Retry-After, short: "2 s", "date", "0 s". */
  label: string;
  askedMs: number;
  /** Until the key's next request left; absent when the client sent nothing more on the key. */
  waitedMs?: number;
}

export function emptyCounts(): VerdictCounts {
  return { pass: 0, fail: 0, warn: 0, 'partly-checked': 0, observed: 0, skipped: 0, 'not-run': 0 };
}

export function buildReport(records: readonly TestRecord[], catalogue: Readonly<RulesCatalogue>, meta: RunMetadata, run: RunInfo): ConformanceReport {
  const concerning = recordsByRule(records);
  const rows = catalogue.rules.map((rule) => ruleRow(rule, concerning.get(rule.id) ?? [], meta));
  const counts = {
    rules: emptyCounts(),
    byLevel: Object.fromEntries(LEVELS.map((level) => [level, emptyCounts()])) as Record<Level, VerdictCounts>,
    bySection: Object.fromEntries(catalogue.sections.map((section) => [section, emptyCounts()])) as Record<string, VerdictCounts>,
    tests: { passed: 0, failed: 0, skipped: 0, interrupted: 0, 'not-run': 0, total: records.length },
    throttledTests: records.filter((record) => record.throttled.length > 0).length,
  };
  for (const row of rows) {
    counts.rules[row.verdict]++;
    counts.byLevel[row.level][row.verdict]++;
    (counts.bySection[row.section] ??= emptyCounts())[row.verdict]++;
  }
  for (const record of records) counts.tests[record.outcome]++;

  return {
    format: 'petstore-conformance-report',
    formatVersion: 1,
    target: { url: meta.targetUrl, bundled: meta.bundled, readOnly: meta.readOnly, quotaTests: meta.quotaTests },
    generatedAt: run.generatedAt,
    suiteVersion: meta.suiteVersion,
    specVersion: meta.specVersion,
    gitCommit: meta.gitCommit,
    rulesHash: meta.rulesHash,
    run,
    verdict: runVerdict(rows, records, run, meta),
    counts,
    throttling: records.flatMap((record) => record.throttled.map((text) => ({ test: record.fullTitle, text }))),
    generated: records.flatMap((record) => record.generated),
    rules: rows,
    problems: protocolProblems(records, catalogue),
  };
}

/**
 * The records each rule's row reads, in the run's order: those that cite it, fail on it or note it. Every part of
 * a row asks only of these, so a row made from them is the row made from all the records; each row looked through
 * every record several times over (75 rules by 75 records, a third of the judge's report on a small capture).
 */
function recordsByRule(records: readonly TestRecord[]): Map<string, TestRecord[]> {
  const byRule = new Map<string, TestRecord[]>();
  for (const record of records) {
    const ids = new Set(record.rules);
    for (const failure of record.failures) for (const id of failure.rules) ids.add(id);
    for (const notes of [record.warnings, record.observations, record.gists, record.unchecked]) for (const note of notes) ids.add(note.rule);
    for (const id of ids) {
      const concerning = byRule.get(id);
      if (concerning) concerning.push(record);
      else byRule.set(id, [record]);
    }
  }
  return byRule;
}

/** Why a conditional rule does not apply to this run, or undefined when it does. */
function notApplicable(rule: Rule, meta: RunMetadata): string | undefined {
  if (rule.appliesWhen === 'enterprise-quota-agreed' && !meta.enterpriseQuota) {
    return 'does not apply: no Enterprise quota was stated for this run (PETSTORE_ENTERPRISE_PER_MINUTE and PETSTORE_ENTERPRISE_PER_DAY)';
  }
  return undefined;
}

/** Why a test that failed on another rule left this one unchecked: it stopped there, or skipped itself for its own reason. */
function stoppedBy(record: TestRecord): string {
  const violated = [...new Set(record.failures.flatMap((failure) => failure.rules))].join(', ');
  return record.skipReason ? `skipped: ${record.skipReason}; after a violation of ${violated}` : `stopped at a violation of ${violated}`;
}

/** One rule's row, judged from `records` alone (lib/verdicts/parts.ts judges each part of a rule with it). */
export function ruleRow(rule: Rule, records: readonly TestRecord[], meta: RunMetadata): RuleRow {
  const citing = records.filter((record) => record.rules.includes(rule.id));
  const failures = records.flatMap((record) =>
    record.failures.filter((failure) => failure.rules.includes(rule.id)).map((failure) => ({ test: record.fullTitle, text: failure.message })),
  );
  const warnings = notesFor(records, rule.id, 'warnings');
  const observations = notesFor(records, rule.id, 'observations');
  const gists = notesFor(records, rule.id, 'gists');
  const unchecked = notesFor(records, rule.id, 'unchecked');
  const naming = records.filter(
    (record) =>
      !record.rules.includes(rule.id) &&
      (record.failures.some((failure) => failure.rules.includes(rule.id)) || record.warnings.some((note) => note.rule === rule.id)),
  );
  const { ran, skipped, stopped } = citingTests(rule, citing, meta);
  const failedTests = new Set([...citing, ...naming].filter((record) => record.outcome === 'failed').map((record) => record.fullTitle));

  let verdict: RuleVerdict;
  let reason: string | undefined;
  const onlyObserved = breachVerdict(rule.level) === 'observed';
  const inapplicable = notApplicable(rule, meta);
  if (inapplicable && failures.length === 0) {
    verdict = 'not-run';
    reason = inapplicable;
  } else if (failures.length > 0) verdict = 'fail';
  else if (onlyObserved && observations.length > 0) {
    // What the target did was seen and written down; a GAP fails no one, so another rule's failure in the same test hides nothing.
    verdict = 'observed';
  } else if (ran.some((record) => judgedWhole(record, rule.id))) {
    const partly = unchecked.length > 0 || skipped.length > 0 || stopped.length > 0;
    verdict = warnings.length > 0 ? 'warn' : onlyObserved ? 'observed' : partly ? 'partly-checked' : 'pass';
    if (partly && !onlyObserved) {
      reason = `left unchecked: ${[
        ...unchecked.map((note) => note.text),
        ...skipped.map((record) => `${record.fullTitle} (skipped: ${record.skipReason ?? 'skipped'})`),
        ...stopped.map((record) => `${record.fullTitle} (${stoppedBy(record)})`),
      ].join('; ')}`;
    }
  }
  else if (ran.length > 0) {
    verdict = 'not-run';
    const blockers = [...new Set(ran.flatMap((record) => record.failures.flatMap((failure) => failure.rules)))];
    const skips = [...new Set(ran.flatMap((record) => (record.skipReason ? [record.skipReason] : [])))];
    reason = skips.length > 0
      ? `not checked: its tests skipped (${skips.join('; ')}) after a violation of ${blockers.join(', ') || 'another rule'}`
      : `not checked: its tests stopped at a violation of ${blockers.join(', ') || 'another rule'} first`;
  } else if (skipped.length > 0) {
    verdict = 'skipped';
    reason = [...new Set(skipped.map((record) => record.skipReason ?? 'skipped'))].join('; ');
  } else {
    verdict = 'not-run';
    reason = notRunReason(rule, citing);
  }

  return {
    id: rule.id,
    level: rule.level,
    section: rule.section,
    subject: rule.subject,
    rule: rule.rule,
    ...(rule.silent ? { silent: rule.silent } : {}),
    verdict,
    applies: inapplicable === undefined,
    ...(reason ? { reason } : {}),
    tests: [...citing.map((record) => ruleTest(record, true)), ...naming.map((record) => ruleTest(record, false))],
    failures,
    warnings,
    observations,
    gists,
    skippedTests: verdict === 'skipped' ? [] : skipped.map((record) => ({ test: record.fullTitle, text: record.skipReason ?? 'skipped' })),
    unchecked,
    evidence: [...citing, ...naming]
      .filter((record) => failedTests.has(record.fullTitle) || warnings.some((note) => note.test === record.fullTitle))
      .flatMap((record) => record.evidence.filter((item) => item.rule === rule.id).map((item) => ({ ...item, test: record.fullTitle }))),
    throttledTests: citing.filter((record) => record.throttled.length > 0).length,
  };
}

/** The tests citing `rule` that ran, those skipped, and those that ran but stopped before they judged it whole. */
function citingTests(rule: Rule, citing: readonly TestRecord[], meta: RunMetadata): { ran: TestRecord[]; skipped: TestRecord[]; stopped: TestRecord[] } {
  const ran = citing.filter((record) => record.outcome === 'passed' || record.outcome === 'failed');
  // A skipped test whose own rule does not apply to this run (PLAN-ENTERPRISE-AGREED without an agreement) leaves
  // nothing of the rules it also cites unchecked.
  const skipped = citing.filter((record) => record.outcome === 'skipped' && (record.rules[0] === rule.id || !notApplicable(ruleById(record.rules[0] ?? rule.id), meta)));
  // A test that failed on another rule may have stopped before it checked this one.
  const stopped = ran.filter((record) => !judgedWhole(record, rule.id));
  return { ran, skipped, stopped };
}

/**
 * The own rules (each test's first) of the tests that left `rule` less than whole in `records`: skipped, stopped
 * before they judged it, or noting what of it they could not check. What is missing of `rule` there is what those
 * tests would have checked, so a scope that leaves out each of them, in the same part, leaves out all of it.
 */
export function leftUncheckedBy(rule: Rule, records: readonly TestRecord[], meta: RunMetadata): string[] {
  const citing = records.filter((record) => record.rules.includes(rule.id));
  const { skipped, stopped } = citingTests(rule, citing, meta);
  const noting = records.filter((record) => record.outcome !== 'skipped' && record.unchecked.some((note) => note.rule === rule.id));
  return [...new Set([...skipped, ...stopped, ...noting].map((record) => record.rules[0] ?? rule.id))].sort();
}

/** Whether a test that ran judged `rule` whole: it passed, or failed only on what left its judgement of `rule` standing. */
function judgedWhole(record: TestRecord, rule: string): boolean {
  return record.outcome === 'passed' || record.ranThrough || record.judgedWhole.includes(rule);
}

function notRunReason(rule: Rule, citing: readonly TestRecord[]): string {
  if (citing.length > 0) return 'the run ended before its tests finished';
  if (rule.subject === 'client') return "binds clients, not the service: checked on the suite's own client by the project's tests (npm test)";
  return 'no test in this run cites it';
}

function notesFor(records: readonly TestRecord[], rule: string, kind: 'warnings' | 'observations' | 'gists' | 'unchecked'): TestNote[] {
  return records.flatMap((record) =>
    record.outcome === 'skipped' ? [] : record[kind].filter((note) => note.rule === rule).map((note) => ({ test: record.fullTitle, text: note.text })),
  );
}

function ruleTest(record: TestRecord, cites: boolean): RuleTest {
  return { title: record.fullTitle, file: record.file, line: record.line, project: record.project, outcome: record.outcome, cites };
}

function runVerdict(rows: readonly RuleRow[], records: readonly TestRecord[], run: RunInfo, meta: RunMetadata): RunVerdict {
  const standing = mustStanding(rows, (row) => row.subject === 'service' && row.applies);
  const { must: mustRows, failed: failedMust, warnedShould } = standing;
  const skippedMust = standing.notChecked.map((row) => ({ rule: row.id, reason: row.reason ?? row.verdict }));
  const partlyCheckedMust = standing.partlyChecked.map((row) => {
    const setting = settingThatChecks(row.reason ?? '', meta);
    return { rule: row.id, reason: row.reason ?? 'partly checked', ...(setting ? { setting } : {}) };
  });
  const partiallySkipped = rows.filter((row) => row.skippedTests.length > 0).map((row) => ({ rule: row.id, tests: row.skippedTests }));
  const notes: string[] = [];
  if (run.status === 'interrupted' || run.status === 'timedout') notes.push(`The run did not finish (${run.status}).`);
  const otherFailures = records.filter((record) => record.outcome === 'failed' && !record.failures.some((f) => f.rules.some((id) => failedMust.includes(id))));
  if (otherFailures.length > 0) notes.push(`${otherFailures.length} failed test(s) concern no failing MUST rule; see the rows they cite.`);

  const unfinished = run.status === 'interrupted' || run.status === 'timedout';
  const state = runState(standing, unfinished);
  let headline: string;
  if (state === 'not-conforming') {
    headline = notConformingHeadline(failedMust);
  } else if (state === 'incomplete') {
    const missing = [
      ...(skippedMust.length > 0 ? [`${skippedMust.length} MUST rule${plural(skippedMust.length)} not checked (${skippedMust.map((s) => s.rule).join(', ')})`] : []),
      ...(partlyCheckedMust.length > 0 ? [`${partlyCheckedMust.length} MUST rule${plural(partlyCheckedMust.length)} partly checked (${partlyCheckedMust.map((s) => s.rule).join(', ')})`] : []),
    ];
    headline =
      missing.length > 0
        ? `Not certified: ${missing.join(' and ')}; a run that leaves part of a MUST rule unchecked cannot be called conforming`
        : 'Not certified: the run did not finish';
  } else {
    headline = `Conforming at MUST level: all ${mustRows.length} MUST rules hold`;
  }
  return { state, conforming: state === 'conforming', headline, failedMust, skippedMust, partlyCheckedMust, partiallySkipped, warnedShould, notes };
}

/**
 * The one setting that would have checked what a reason says was left out: a variable the reason names
 * (skip messages name the one to set), else leaving read-only mode when the run was read-only.
 */
function settingThatChecks(reason: string, meta: RunMetadata): string | undefined {
  const named = /PETSTORE_[A-Z_]+(?:=1\b)?/.exec(reason)?.[0];
  if (named && !named.startsWith('PETSTORE_READ_ONLY')) return named;
  if (meta.readOnly || named) return 'unset PETSTORE_READ_ONLY';
  return undefined;
}

function protocolProblems(records: readonly TestRecord[], catalogue: Readonly<RulesCatalogue>): string[] {
  const problems: string[] = [];
  const levels = new Map(catalogue.rules.map((rule) => [rule.id, rule.level]));
  for (const record of records) {
    if (record.unknownRules.length > 0) problems.push(`"${record.fullTitle}" cites ${record.unknownRules.join(', ')}, which fixtures/rules.yaml does not have`);
    if (record.rules.length === 0 && record.unknownRules.length === 0) problems.push(`"${record.fullTitle}" cites no rule`);
    const primary = record.rules[0];
    if (primary && record.titleLevel && levels.get(primary) !== record.titleLevel) {
      problems.push(`"${record.fullTitle}" says ${record.titleLevel}, but ${primary} is ${levels.get(primary)}`);
    }
  }
  return problems;
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}
