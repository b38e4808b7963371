/**
 * What a report says it checked, part by part: the evidence a later certificate is assembled from
 * (lib/verdicts/certificate.ts). Every report carries it (certify's conformance.json, a merged shard's, judge's,
 * load's summary.json): for each part of a rule, when it was checked, against which target, with what result.
 *
 * A part of a rule is what one spec file of the suite checks of it (the rule's tests in that file), named after
 * the file: `PLAN-BUSINESS:day` (daily-quota.spec.ts), `PLAN-BUSINESS:minute` (minute-limits.spec.ts),
 * `RL-4:rate-limit-headers`. A part is checked when its tests ran and judged the rule whole; a part one run could
 * not check (the quota tests off, a key spent) may be checked by another.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { catalogue, type Rule, type RulesCatalogue } from '../rules.ts';
import { leftUncheckedBy, ruleRow, type ConformanceReport, type RuleVerdict, type RunMetadata } from './model.ts';
import type { TestRecord } from './test-record.ts';

/** Verdicts that say a part was checked (held or not); the others say why it was not. */
export const CHECKED_RESULTS: readonly RuleVerdict[] = ['pass', 'fail', 'warn', 'observed'];

export interface PartEvidence {
  rule: string;
  part: string;
  result: RuleVerdict;
  /** The result is one of pass, fail, warn, observed: the part was put to the test. */
  checked: boolean;
  /** When the part's tests last ran (ISO 8601); the run's start when no test of it ran. */
  checkedAt: string;
  /** Why it was not checked, or what of it was left out. */
  reason?: string;
  /**
   * For a part not checked whole: the own rules of the tests that left it so (a skipped PLAN-BUSINESS day test
   * leaves RL-1's day part partly checked). A scope that leaves out each of them in this part leaves out all of it.
   */
  leftUncheckedBy?: string[];
}

export interface EvidenceTarget {
  /** The base URL the report's requests went to (or whose traffic it judged), /v1 included. */
  baseUrl: string;
  /** The interface version the service answers under: its base address's version segment ("v1"). */
  apiVersion?: string;
  /** The deployment's own version, when the run was told it (PETSTORE_SERVICE_VERSION). */
  serviceVersion?: string;
}

export type EvidenceSource = 'certify' | 'judge' | 'load';

/** A span of traffic's own clock, as ISO 8601 instants. */
export interface TrafficPeriod {
  from: string;
  to: string;
}

export interface ReportEvidence {
  source: EvidenceSource;
  /** Which run this was, in a certificate's words: "nightly run", "production run" (PETSTORE_RUN_LABEL). */
  label: string;
  target: EvidenceTarget;
  startedAt: string;
  /** One of `count` processes over the same traffic, each judging its share of the keys (shard-evidence.ts). */
  shard?: { index: number; count: number };
  /** For judged traffic: the period it covers, the first to the last answer read (shards merge only within one). */
  period?: TrafficPeriod;
  specVersion: string;
  parts: PartEvidence[];
}

/** Spec files whose part has a shorter name than the file's. */
const PART_NAMES: Readonly<Record<string, string>> = { 'daily-quota': 'day', 'minute-limits': 'minute' };

/** The part of its rules a test checks: its spec file's name; for the judge, the traffic it judged. */
function partOf(record: Pick<TestRecord, 'file' | 'project'>): string {
  if (record.project === 'judge') return 'traffic';
  const name = path.basename(record.file).replace(/\.spec\.[cm]?[jt]s$/, '');
  return PART_NAMES[name] ?? name;
}

let suiteParts: ReadonlySet<string> | undefined;

/**
 * Whether a report of this package can name such a part: a spec file's (day, minute, auth, ...), the judge's
 * traffic, or one of load's own checks (load:remaining-steps). A scope naming any other (PLAN-FREE:week,
 * PLAN-FREE:days) would leave out nothing, so it is refused before anything runs.
 */
export function isKnownPart(part: string): boolean {
  suiteParts ??= new Set(
    readdirSync(new URL('../../specs', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.spec\.[cm]?[jt]s$/.test(file))
      .map((file) => partOf({ file, project: 'service' })),
  );
  return part === 'traffic' || /^load:[a-z][a-z-]*$/.test(part) || suiteParts.has(part);
}

/** Every part name isKnownPart accepts but load's, for the line that refuses one. */
export function knownPartNames(): string[] {
  isKnownPart('');
  return [...suiteParts!, 'traffic'].sort();
}

/** A rule's parts, as the evidence names them: "PLAN-BUSINESS:day". */
export function partId(rule: string, part: string): string {
  return `${rule}:${part}`;
}

/** Each part of each rule the records cite (or name in a failure), judged from that part's records alone. */
export function partsOf(records: readonly TestRecord[], meta: RunMetadata, startedAt: string, rules: Readonly<RulesCatalogue> = catalogue): PartEvidence[] {
  const byPart = new Map<string, TestRecord[]>();
  for (const record of records) byPart.set(partOf(record), [...(byPart.get(partOf(record)) ?? []), record]);
  const parts: PartEvidence[] = [];
  for (const rule of rules.rules) {
    for (const [part, partRecords] of [...byPart].sort(([a], [b]) => a.localeCompare(b))) {
      const concerned = partRecords.filter((record) => record.rules.includes(rule.id) || record.failures.some((failure) => failure.rules.includes(rule.id)));
      if (concerned.length === 0) continue;
      parts.push(partEvidence(rule, part, concerned, meta, startedAt));
    }
  }
  return parts;
}

function partEvidence(rule: Rule, part: string, records: readonly TestRecord[], meta: RunMetadata, startedAt: string): PartEvidence {
  const row = ruleRow(rule, records, meta);
  const ended = records.flatMap((record) => (record.startedAt ? [Date.parse(record.startedAt) + record.durationMs] : []));
  const checked = CHECKED_RESULTS.includes(row.verdict);
  const leftBy = checked ? [] : leftUncheckedBy(rule, records, meta);
  return {
    rule: rule.id,
    part,
    result: row.verdict,
    checked,
    checkedAt: ended.length > 0 ? new Date(Math.max(...ended)).toISOString() : startedAt,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(leftBy.length > 0 ? { leftUncheckedBy: leftBy } : {}),
  };
}

/** The target as evidence names it: the base URL, and the version segment it carries. */
export function evidenceTarget(baseUrl: string, serviceVersion?: string): EvidenceTarget {
  const version = /\/(v\d+)(?:\/|$)/.exec(baseUrl)?.[1];
  return { baseUrl, ...(version ? { apiVersion: version } : {}), ...(serviceVersion ? { serviceVersion } : {}) };
}

/**
 * Two reports are of one target when their base URLs are one address: scheme and host compared without case,
 * the path without a trailing slash. The service's own version is not part of it: staging redeployed between
 * the nightly run and this commit's is still staging.
 */
export function sameTarget(a: string, b: string): boolean {
  return targetKey(a) === targetKey(b);
}

function targetKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.trim();
  }
}

/** The evidence of a report with one part per rule (judge: the traffic), from its rows. */
export function evidenceOfRows(report: Pick<ConformanceReport, 'rules' | 'run' | 'specVersion'>, source: EvidenceSource, label: string, target: EvidenceTarget, part: string): ReportEvidence {
  return {
    source,
    label,
    target,
    startedAt: report.run.startedAt,
    specVersion: report.specVersion,
    parts: report.rules
      .filter((row) => row.subject === 'service' && row.tests.length > 0)
      .map((row) => ({
        rule: row.id,
        part,
        result: row.verdict,
        checked: CHECKED_RESULTS.includes(row.verdict),
        checkedAt: report.run.startedAt,
        ...(row.reason ? { reason: row.reason } : {}),
      })),
  };
}
