/**
 * A certificate assembled from reports: the run just made, judged together with earlier reports of the same
 * target (`certify --evidence`). Part by part (lib/verdicts/evidence.ts):
 *
 * - a part counts as checked when some report within the age (`--max-age`, default 7 days) checked it;
 * - a failure within the age fails, unless a LATER report checked the same part and it held. A fix is seen
 *   as soon as the part is checked again, without waiting for the failure to age out; a pass from before the
 *   failure never hides it (the service may have regressed), nor does a later run that did not check the part;
 * - reports of another target never count, except where the spec ties two targets: staging has production's
 *   shape (VER-2), so a report of the target's declared staging covers a part the target's own reports did not
 *   check, and says so;
 * - what the team declared out of scope (`--out-of-scope PLAN-BUSINESS:day`) is reported as not in scope, never
 *   as passed: the verdict is then "Conforming within that scope". A failure within the age still fails.
 *
 * The certificate's verdict is the run's verdict once it is made; the run's own stays in `ownVerdict`.
 */
import type { Level } from '../rules.ts';
import { CHECKED_RESULTS, partId, sameTarget, type EvidenceSource, type PartEvidence, type ReportEvidence } from './evidence.ts';
import type { EvidenceReport } from './evidence-files.ts';
import type { ConformanceReport, RuleVerdict, RunVerdict } from './model.ts';
import { mustStanding, notConformingHeadline, runState } from './must-rows.ts';

export const DEFAULT_MAX_AGE = '7d';
const DAY_MS = 86_400_000;

/** Where a part's standing came from. */
export interface PartSource {
  /** "this run", or the report's label ("nightly run"). */
  label: string;
  file?: string;
  source: EvidenceSource;
  /** The target the report checked, /v1 included: this target's, or its staging's (VER-2). */
  baseUrl: string;
  checkedAt: string;
  ageMs: number;
  /** Counted through VER-2: a report of the target's staging. */
  staging?: boolean;
}

export type PartState = 'held' | 'failed' | 'unchecked' | 'not-in-scope';

export interface PartStanding {
  part: string;
  state: PartState;
  result?: RuleVerdict;
  by?: PartSource;
  /** For a part nothing within the age checked: why the newest report that tried did not. */
  reason?: string;
  /**
   * For a part out of scope without being declared so: the declared parts whose tests alone left it unchecked
   * (RL-1:day through PLAN-BUSINESS:day, when Business's day test was skipped).
   */
  through?: string[];
}

export type CertificateVerdict = RuleVerdict | 'not-in-scope';

export interface CertificateRule {
  id: string;
  level: Level;
  verdict: CertificateVerdict;
  parts: PartStanding[];
  /** "PLAN-BUSINESS: day checked by the nightly run of 2026-11-20, 4 days old; minute checked by this run". */
  line: string;
}

export interface ConsideredReport {
  file: string;
  label: string;
  source: EvidenceSource;
  baseUrl: string;
  startedAt: string;
  /** Whether any of its parts counted; if not, why not. */
  counted: boolean;
  why?: string;
}

export interface Certificate {
  madeAt: string;
  maxAge: string;
  outOfScope: string[];
  stagingUrl?: string;
  reports: ConsideredReport[];
  rules: CertificateRule[];
  /** The run's verdict from its own tests alone. */
  ownVerdict: RunVerdict;
}

/** A report with its evidence and, when one was made, the certificate (what conformance.json holds). */
export type CertifiedReport = ConformanceReport & { evidence?: ReportEvidence; certificate?: Certificate };

export interface CertificateOptions {
  now: Date;
  maxAge: string;
  maxAgeMs: number;
  /** Rule IDs or parts ("PLAN-BUSINESS:day") the team leaves out. */
  outOfScope: readonly string[];
  /** The base URL of this target's staging (VER-2): its reports cover what this target's own did not check. */
  stagingUrl?: string;
}

interface Entry extends PartEvidence {
  from: PartSource;
}

export function makeCertificate(report: CertifiedReport, evidence: readonly EvidenceReport[], options: CertificateOptions): { certificate: Certificate; verdict: RunVerdict } {
  const own = report.evidence;
  if (!own) throw new Error('the run wrote no evidence of its own');
  const now = options.now.getTime();
  const considered: ConsideredReport[] = [];
  const entries = new Map<string, Entry[]>();
  const known = new Map<string, Set<string>>();
  const know = (rule: string, part: string): void => void (known.get(rule) ?? known.set(rule, new Set()).get(rule)!).add(part);
  const add = (item: PartEvidence, from: PartSource): void => {
    const key = partId(item.rule, item.part);
    entries.set(key, [...(entries.get(key) ?? []), { ...item, from }]);
  };

  for (const item of own.parts) {
    know(item.rule, item.part);
    add(item, { label: 'this run', source: own.source, baseUrl: own.target.baseUrl, checkedAt: item.checkedAt, ageMs: 0 });
  }
  for (const { file, evidence: other } of evidence) {
    const base = { file, label: other.label, source: other.source, baseUrl: other.target.baseUrl, startedAt: other.startedAt };
    const staging = options.stagingUrl !== undefined && sameTarget(other.target.baseUrl, options.stagingUrl) && !sameTarget(other.target.baseUrl, own.target.baseUrl);
    if (!staging && !sameTarget(other.target.baseUrl, own.target.baseUrl)) {
      considered.push({ ...base, counted: false, why: `another target, ${other.target.baseUrl}` });
      continue;
    }
    if (other.specVersion !== report.specVersion) {
      considered.push({ ...base, counted: false, why: `another spec version, ${other.specVersion}` });
      continue;
    }
    let counted = 0;
    for (const item of other.parts) {
      const ageMs = now - Date.parse(item.checkedAt);
      // Parts the suite has are known from every report of it, however old, so a stale night's day part is named as unchecked.
      if (other.source === 'certify') know(item.rule, item.part);
      if (ageMs > options.maxAgeMs || ageMs < -DAY_MS) continue;
      // Traffic and load runs pass only the parts they share with the suite; their failures count wherever they are.
      if (other.source !== 'certify' && item.result === 'fail') know(item.rule, item.part);
      add(item, { label: other.label, file, source: other.source, baseUrl: other.target.baseUrl, checkedAt: item.checkedAt, ageMs: Math.max(0, ageMs), ...(staging ? { staging: true } : {}) });
      counted++;
    }
    considered.push(counted > 0 ? { ...base, counted: true } : { ...base, counted: false, why: `older than ${options.maxAge}` });
  }

  const scope = new Set(options.outOfScope);
  const rules = report.rules.map((row): CertificateRule => {
    // A rule this run says does not apply (no Enterprise quota agreed) has no part to cover.
    const parts = row.applies ? [...(known.get(row.id) ?? [])].sort().map((part) => standing(row.id, part, entries.get(partId(row.id, part)) ?? [], scope)) : [];
    const ruleOutOfScope = scope.has(row.id);
    const verdict = ruleVerdict(row.verdict, parts, ruleOutOfScope);
    return { id: row.id, level: row.level, verdict, parts, line: provenanceLine(row.id, parts, verdict, row.reason, options) };
  });
  const certificate: Certificate = {
    madeAt: options.now.toISOString(),
    maxAge: options.maxAge,
    outOfScope: [...options.outOfScope],
    ...(options.stagingUrl ? { stagingUrl: options.stagingUrl } : {}),
    reports: considered,
    rules,
    ownVerdict: report.verdict,
  };
  const verdict = certificateVerdict(report, rules, options);
  // A part the scope names that no report lists is a typo or a part the suite does not have: say so, it left out nothing.
  const unknown = options.outOfScope.filter((item) => item.includes(':') && !known.get(item.slice(0, item.indexOf(':')))?.has(item.slice(item.indexOf(':') + 1)));
  if (unknown.length > 0) verdict.notes.push(`Declared out of scope, but no report lists such a part: ${unknown.join(', ')}.`);
  return { certificate, verdict };
}

function standing(rule: string, part: string, entries: readonly Entry[], scope: ReadonlySet<string>): PartStanding {
  const checked = entries.filter((entry) => entry.checked).sort((a, b) => Date.parse(a.checkedAt) - Date.parse(b.checkedAt));
  // The target's own reports first; its staging's only where the target's own checked nothing of the part.
  const ownChecked = checked.filter((entry) => !entry.from.staging);
  const latest = (ownChecked.length > 0 ? ownChecked : checked).at(-1);
  if (latest?.result === 'fail') return { part, state: 'failed', result: 'fail', by: latest.from };
  if (scope.has(rule) || scope.has(partId(rule, part))) return { part, state: 'not-in-scope' };
  if (latest) return { part, state: 'held', result: latest.result, by: latest.from };
  const newest = [...entries].sort((a, b) => Date.parse(a.checkedAt) - Date.parse(b.checkedAt)).at(-1);
  // What the newest report left unchecked of the part, only tests of parts the scope leaves out left: the part
  // is out of scope through them, never passed. (A Business day test skipped, PLAN-BUSINESS:day declared.)
  const left = newest?.leftUncheckedBy ?? [];
  if (newest && left.length > 0 && left.every((rule) => scope.has(rule) || scope.has(partId(rule, part)))) {
    return { part, state: 'not-in-scope', result: newest.result, by: newest.from, through: left.map((rule) => partId(rule, part)) };
  }
  return { part, state: 'unchecked', ...(newest?.reason ? { reason: newest.reason } : {}), ...(newest ? { by: newest.from } : {}) };
}

function ruleVerdict(ownVerdict: RuleVerdict, parts: readonly PartStanding[], outOfScope: boolean): CertificateVerdict {
  if (parts.some((part) => part.state === 'failed')) return 'fail';
  if (parts.length === 0) return outOfScope && ownVerdict !== 'fail' ? 'not-in-scope' : ownVerdict;
  const held = parts.filter((part) => part.state === 'held');
  if (parts.some((part) => part.state === 'unchecked')) return held.length > 0 ? 'partly-checked' : 'not-run';
  if (held.length === 0) return 'not-in-scope';
  const results = held.map((part) => part.result);
  // A part held but out of scope elsewhere: the rule held within the scope, never passed whole.
  if (parts.some((part) => part.state === 'not-in-scope')) return 'not-in-scope';
  return results.includes('warn') ? 'warn' : results.every((result) => result === 'observed') ? 'observed' : 'pass';
}

/** "PLAN-BUSINESS: day checked by the nightly run of 2026-11-20, 4 days old; minute checked by this run". */
function provenanceLine(rule: string, parts: readonly PartStanding[], verdict: CertificateVerdict, reason: string | undefined, options: CertificateOptions): string {
  if (parts.length === 0) return `${rule}: ${verdict === 'not-in-scope' ? 'not in scope' : (reason ?? verdict)}`;
  return `${rule}: ${parts.map((part) => partWords(part, options)).join('; ')}`;
}

function partWords(part: PartStanding, options: CertificateOptions): string {
  if (part.state === 'not-in-scope') return `${part.part} not in scope${part.through ? ` through ${part.through.join(', ')} (${throughWords(part)})` : ''}`;
  if (part.state === 'unchecked') return `${part.part} checked by no report within ${options.maxAge}${part.reason ? ` (${part.reason})` : ''}`;
  const by = part.by!;
  const how = part.state === 'failed' ? 'failed' : CHECKED_RESULTS.includes(part.result ?? 'pass') && part.result !== 'pass' ? `${part.result}` : 'checked';
  return `${part.part} ${how} by ${sourceWords(by)}`;
}

/** "this run", "the nightly run of 2026-11-20, 4 days old": the report a part's standing came from. */
function sourceWords(by: PartSource): string {
  if (by.label === 'this run') return 'this run';
  const staging = by.staging ? ' (staging has production\'s shape, VER-2)' : '';
  return `the ${by.label} of ${by.checkedAt.slice(0, 10)}, ${ageWords(by.ageMs)}${staging}`;
}

/** "the rest held by this run": what a part out of scope through others had of its own. */
export function throughWords(part: PartStanding): string {
  const what = `only ${part.through!.length === 1 ? 'its tests' : 'their tests'} left it unchecked`;
  return part.result === 'partly-checked' ? `${what}; the rest held by ${sourceWords(part.by!)}` : what;
}

/**
 * An age in its largest whole unit, rounded up, so that nothing says evidence is fresher than it was: 1.93
 * minutes is 2 minutes, 25 hours is 2 days. The badge (ageBound) and the words (ageWords) both round so.
 */
export function roundedAge(ms: number): { count: number; unit: 'minute' | 'hour' | 'day' } {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return { count: minutes, unit: 'minute' };
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return { count: hours, unit: 'hour' };
  return { count: Math.ceil(hours / 24), unit: 'day' };
}

/** "4 days old", "12 hours old", "3 minutes old": how the certificate and the job summary say an age, rounded up. */
export function ageWords(ms: number): string {
  const { count, unit } = roundedAge(ms);
  return `${count} ${unit}${count === 1 ? '' : 's'} old`;
}

/**
 * The reports a certificate stood on, for its headline: "this run and the nightly run of 2026-11-20 (2 days
 * old)"; "this run alone" when no earlier report counted for a part it holds.
 */
function evidenceUsed(rules: readonly CertificateRule[]): string {
  const earlier = new Map<string, PartSource>();
  for (const part of rules.flatMap((rule) => rule.parts)) {
    const by = part.by;
    if ((part.state !== 'held' && part.state !== 'failed') || by?.file === undefined) continue;
    const seen = earlier.get(by.file);
    if (!seen || by.ageMs > seen.ageMs) earlier.set(by.file, by);
  }
  if (earlier.size === 0) return 'this run alone';
  const named = [...earlier.values()].sort((a, b) => b.ageMs - a.ageMs).map((by) => `the ${by.label} of ${by.checkedAt.slice(0, 10)} (${ageWords(by.ageMs)}${by.staging ? ', staging' : ''})`);
  const shown = named.length > 3 ? [...named.slice(0, 2), `${named.length - 2} more reports`] : named;
  return `this run and ${shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`}`;
}

function certificateVerdict(report: CertifiedReport, rules: readonly CertificateRule[], options: CertificateOptions): RunVerdict {
  const applies = new Map(report.rules.map((row) => [row.id, row.applies && row.subject === 'service']));
  const standing = mustStanding(rules, (rule) => applies.get(rule.id) === true);
  const { must, failed: failedMust, warnedShould } = standing;
  const uncovered = must.filter((rule) => standing.notChecked.includes(rule) || standing.partlyChecked.includes(rule));
  const missing = uncovered.flatMap((rule) => {
    const parts = rule.parts.filter((part) => part.state === 'unchecked').map((part) => partId(rule.id, part.part));
    return parts.length > 0 ? parts : [rule.id];
  });
  const notInScope = must.flatMap((rule) => {
    const parts = rule.parts.filter((part) => part.state === 'not-in-scope').map((part) => `${partId(rule.id, part.part)}${part.through ? ` through ${part.through.join(', ')}` : ''}`);
    return parts.length > 0 ? parts : rule.verdict === 'not-in-scope' ? [rule.id] : [];
  });
  const skippedMust = standing.notChecked.map((rule) => ({ rule: rule.id, reason: rule.line }));
  const partlyCheckedMust = standing.partlyChecked.map((rule) => ({ rule: rule.id, reason: rule.line }));
  const counted = options.maxAge;
  const notes = [...report.verdict.notes.filter((note) => !/did not finish/.test(note) || missing.length > 0)];
  if (notInScope.length > 0) notes.push(`Not in scope (declared, not checked, never counted as passed): ${notInScope.join(', ')}.`);

  const state = runState(standing, false);
  let headline: string;
  if (state === 'not-conforming') {
    headline = notConformingHeadline(failedMust, counted);
  } else if (state === 'incomplete') {
    headline = `Not certified: no report within ${counted} checked ${missing.join(', ')}`;
  } else if (notInScope.length > 0) {
    headline = `Conforming within that scope: every MUST rule holds on ${evidenceUsed(rules)}, except what was declared out of scope (${notInScope.join(', ')})`;
  } else {
    headline = `Conforming at MUST level: all ${must.length} MUST rules hold on ${evidenceUsed(rules)}`;
  }
  return { state, conforming: state === 'conforming', headline, failedMust, skippedMust, partlyCheckedMust, partiallySkipped: report.verdict.partiallySkipped, warnedShould, notes };
}
