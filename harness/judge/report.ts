/**
 * The judge's tallies as the conformance report the suite writes (lib/verdicts/model.ts): one record per
 * rule, as the suite has one test per rule, so the same verdicts follow. A rule the traffic put to the test
 * and that held is `pass` only when nothing of it was left out; a rule this traffic cannot show is skipped
 * with why (no 429 in the capture, a key of no known plan), never passed.
 */
import { QUOTA_RULES, RULE, trafficNeed } from '../../lib/checks/registry.ts';
import type { Redactor } from '../../lib/redact.ts';
import { catalogue, ruleById } from '../../lib/rules.ts';
import { breachVerdict } from '../../lib/verdicts/level.ts';
import { buildReport, type ConformanceReport, type RunMetadata } from '../../lib/verdicts/model.ts';
import { emptyRecord, type TestRecord } from '../../lib/verdicts/test-record.ts';
import type { RuleTallies } from './rule-tally.ts';
import { CLIENT_RULES } from './client-exchange.ts';

/** What a rule needs in the traffic to be judged (its checks', lib/checks/registry.ts): said when the capture had none of it. */
export const NEEDS: Readonly<Record<string, string>> = Object.fromEntries(
  catalogue.rules.flatMap((rule) => {
    const need = trafficNeed(rule.id);
    return need === undefined ? [] : [[rule.id, need]];
  }),
);

/** What traffic never shows of a quota rule it judges, however much of it there is: the checks of it the judge does not run. */
const NEVER_SHOWN = 'the daily quota, and that a window admits its whole quota before refusing: traffic shows only that no window admitted more';

/** The rules judged per window: a quota's, Remaining's countdown, Reset staying put. */
const WINDOW_RULES: ReadonlySet<string> = new Set([RULE['remaining-countdown'], RULE['reset-stable'], ...QUOTA_RULES]);

/** The rules the judge's report gives a verdict on: the service's, and the client rules traffic shows. */
export const REPORTED_RULES: readonly string[] = catalogue.rules.filter((rule) => rule.subject === 'service' || (CLIENT_RULES as readonly string[]).includes(rule.id)).map((rule) => rule.id);

export interface JudgeRun {
  /** What was judged, as the report's target: "capture session.har". */
  target: string;
  file: string;
  startedAt: Date;
  durationMs: number;
  suiteVersion: string;
  rulesHash: string;
  gitCommit: string;
  enterpriseQuota: string | undefined;
}

/**
 * The report of what the judge saw, with every key and anything that looks like a credential redacted by
 * `redactor` (the configured keys, and whatever a capture's queries, headers and bodies carried).
 */
export function judgeReport(tallies: RuleTallies, run: JudgeRun, redactor: Redactor): ConformanceReport {
  const records = REPORTED_RULES.map((id) => recordOf(id, tallies, run.file));
  const meta: RunMetadata = {
    targetUrl: run.target,
    bundled: false,
    readOnly: false,
    quotaTests: false,
    suiteVersion: run.suiteVersion,
    specVersion: catalogue.specVersion,
    gitCommit: run.gitCommit,
    rulesHash: run.rulesHash,
    ...(run.enterpriseQuota ? { enterpriseQuota: run.enterpriseQuota } : {}),
  };
  return redactor.deep(buildReport(records, catalogue, meta, { status: 'passed', startedAt: run.startedAt.toISOString(), durationMs: run.durationMs, generatedAt: new Date().toISOString() }));
}

export function recordOf(id: string, tallies: RuleTallies, file: string): TestRecord {
  const rule = ruleById(id);
  const tally = tallies.get(id);
  const title = `${id} ${rule.level} judged from traffic`;
  const record = emptyRecord({
    id: `judge-${id}`,
    title,
    fullTitle: title,
    file,
    line: 0,
    project: 'judge',
    outcome: 'passed',
    rules: [id],
    unknownRules: [],
    titleLevel: rule.level,
    ranThrough: true,
  });
  const needs = NEEDS[id];
  if (needs === undefined) return { ...record, outcome: 'skipped', skipReason: 'traffic cannot show this rule: it takes requests the suite sends on purpose (npm run conformance)' };
  // A window's breach is found as it happens, its judging counted when it closes: a live report (the watcher's) can hold the first before the second.
  if (!tally || tally.exchanges + tally.windows + tally.violations === 0) {
    const why = tally ? [...tally.unchecked].map(([reason, times]) => `; ${reason} (${count(times, 'time')})`).join('') : '';
    return { ...record, outcome: 'skipped', skipReason: `not judged: this traffic has no ${needs.replace(/^an? /, '')}${why}` };
  }

  const backed = [tally.exchanges > 0 ? count(tally.exchanges, 'exchange') : '', tally.windows > 0 ? count(tally.windows, 'window') : ''].filter(Boolean).join(' and ') || 'windows not closed yet';
  record.observations.push({ rule: id, text: `judged on ${backed}${tally.keys.size > 0 ? ` of ${count(tally.keys.size, 'key')} (${keyNames(tally.keys)})` : ''}` });
  if (WINDOW_RULES.has(id) && tally.windows === 0 && tally.violations === 0) record.unchecked.push({ rule: id, text: 'no window of any key held two admitted answers more than a second before its Reset (windows shorter than Reset\'s whole seconds, or too little traffic per window), so no window could be compared' });
  for (const [what, times] of tally.seen) {
    record.observations.push({ rule: id, text: `${what} (${count(times, 'answer')})` });
    if (record.gists.length === 0) record.gists.push({ rule: id, text: what });
  }
  for (const text of tally.notes) record.observations.push({ rule: id, text });
  for (const [reason, times] of tally.unchecked) record.unchecked.push({ rule: id, text: `${reason} (${count(times, 'time')})` });
  if ((QUOTA_RULES as readonly string[]).includes(id)) record.unchecked.push({ rule: id, text: NEVER_SHOWN });
  if (tally.violations > 0) {
    const more = tally.violations > tally.messages.length ? [`…and ${count(tally.violations - tally.messages.length, 'more violation')}`] : [];
    const notes = [...tally.messages, ...more].map((message) => `[${id}] ${message}`);
    const verdict = breachVerdict(rule.level);
    if (verdict === 'fail') {
      record.outcome = 'failed';
      record.failures = notes.map((message) => ({ rules: [id], message }));
    } else if (verdict === 'warn') record.warnings = notes.map((text) => ({ rule: id, text }));
    else record.observations.push(...notes.map((text) => ({ rule: id, text })));
    record.evidence = tally.evidence;
  }
  return record;
}

/** Keys by pseudonym, the first few: enough to tell whose traffic backed a rule. */
function keyNames(keys: ReadonlySet<string>): string {
  const names = [...keys].sort();
  return names.length > 6 ? `${names.slice(0, 6).join(', ')}, …` : names.join(', ');
}

function count(n: number, singular: string): string {
  return `${n.toLocaleString('en-US')} ${singular}${n === 1 ? '' : 's'}`;
}
