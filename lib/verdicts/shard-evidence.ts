/**
 * Reports of shards (judge or watch --shard i/n: n processes over the same traffic, each judging the keys whose
 * pseudonym hashes to it) merged into the one report a single process would have written, before a certificate
 * counts them: a part fails if any shard's fails (a certificate otherwise takes the newest report's word, and a
 * shard that passed later would hide another's failure); it is partly checked if any shard left some of it out;
 * it held if a shard checked it and none failed it; a shard whose keys never showed it says nothing of it. Shards
 * belong together by label, target, spec version and count, and by the period of traffic they read: every shard
 * reads all of the traffic, so shards of one run read the same period (watchers stopped a little apart: within
 * PERIOD_SLACK_MS of each other). Reports of periods that do not overlap (last week's shards and this week's) are
 * merged apart, each period on its own; shards whose periods overlap but differ are refused, with the periods
 * said, as a shard of another run would otherwise stand for keys this run's shard judged. Within one period every
 * one of 1..n must be there, once. Reports written before reports said their period are one period, as before.
 */
import type { PartEvidence, ReportEvidence, TrafficPeriod } from './evidence.ts';
import type { RuleVerdict } from './model.ts';

export class ShardEvidenceError extends Error {}

/** How far apart the periods of one run's shards may start or end: watchers over one stream stopped a little apart. */
export const PERIOD_SLACK_MS = 60_000;

/** A report as read from its file (evidence-files.ts). */
interface EvidenceReport {
  file: string;
  evidence: ReportEvidence;
}

/** The reports, each group of shards replaced by one merged report (named by its files joined with +). */
export function mergedShards(reports: readonly EvidenceReport[], flag: string): EvidenceReport[] {
  const whole: EvidenceReport[] = [];
  const groups = new Map<string, EvidenceReport[]>();
  for (const report of reports) {
    const { shard, label, target, specVersion } = report.evidence;
    if (!shard) whole.push(report);
    else {
      const key = JSON.stringify([label, target.baseUrl, specVersion, shard.count]);
      groups.set(key, [...(groups.get(key) ?? []), report]);
    }
  }
  return [...whole, ...[...groups.values()].flatMap((group) => byPeriod(group, flag).map((period) => merged(period, flag)))];
}

/**
 * The group's reports in periods: those whose periods overlap are one period, and must be the same one (within
 * PERIOD_SLACK_MS); reports that give no period are one period of their own.
 */
function byPeriod(group: readonly EvidenceReport[], flag: string): EvidenceReport[][] {
  const unsaid = group.filter((report) => !report.evidence.period);
  const said = group.filter((report) => report.evidence.period).sort((a, b) => ms(a, 'from') - ms(b, 'from'));
  const periods: EvidenceReport[][] = unsaid.length > 0 ? [unsaid] : [];
  let current: EvidenceReport[] = [];
  let reach = -Infinity;
  for (const report of said) {
    if (current.length > 0 && ms(report, 'from') > reach) {
      periods.push(current);
      current = [];
    }
    current.push(report);
    reach = Math.max(reach, ms(report, 'to'));
  }
  if (current.length > 0) periods.push(current);
  for (const period of periods) {
    const [first] = period as [EvidenceReport];
    const apart = period.find((report) => report.evidence.period && first.evidence.period && (Math.abs(ms(report, 'from') - ms(first, 'from')) > PERIOD_SLACK_MS || Math.abs(ms(report, 'to') - ms(first, 'to')) > PERIOD_SLACK_MS));
    if (apart) throw new ShardEvidenceError(`${flag} ${apart.file}: shard ${shardName(apart)} of ${whatOf(first)} read ${periodText(apart.evidence.period)}, but shard ${shardName(first)} (${first.file}) read ${periodText(first.evidence.period)}: shards of one run read the same traffic; give the reports of one period, one per shard`);
  }
  return periods;
}

function ms(report: EvidenceReport, end: keyof TrafficPeriod): number {
  return Date.parse(report.evidence.period?.[end] ?? '');
}

function shardName(report: EvidenceReport): string {
  return `${report.evidence.shard?.index ?? 0}/${report.evidence.shard?.count ?? 1}`;
}

function whatOf(report: EvidenceReport): string {
  return `"${report.evidence.label}" of ${report.evidence.target.baseUrl}`;
}

/** "the traffic from 2026-11-01 00:00:00 to 2026-11-01 00:17:03 UTC", to the second. */
function periodText(period: TrafficPeriod | undefined): string {
  const second = (at: string): string => at.slice(0, 19).replace('T', ' ');
  return period ? `the traffic from ${second(period.from)} to ${second(period.to)} UTC` : 'traffic of a period its report does not say';
}

function merged(group: readonly EvidenceReport[], flag: string): EvidenceReport {
  const first = group[0] as EvidenceReport;
  const count = first.evidence.shard?.count ?? 1;
  const period = first.evidence.period ? ` for ${periodText(first.evidence.period)}` : '';
  const what = `"${first.evidence.label}" of ${first.evidence.target.baseUrl}${period}`;
  const byIndex = new Map<number, EvidenceReport>();
  for (const report of group) {
    const index = report.evidence.shard?.index ?? 0;
    const other = byIndex.get(index);
    if (other) throw new ShardEvidenceError(`${flag} ${report.file}: shard ${index}/${count} of ${what} is given twice (also ${other.file}); give the reports of one period, one per shard`);
    byIndex.set(index, report);
  }
  const missing = Array.from({ length: count }, (_, at) => at + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new ShardEvidenceError(`${flag} ${first.file}: shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${count}`).join(', ')} of ${what} missing: the keys hashed there were judged by no report given; give every shard's report`);
  const shards = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, report]) => report);
  const parts = new Map<string, PartEvidence[]>();
  for (const report of shards) for (const part of report.evidence.parts) parts.set(`${part.rule}:${part.part}`, [...(parts.get(`${part.rule}:${part.part}`) ?? []), part]);
  const periods = shards.flatMap((report) => (report.evidence.period ? [report.evidence.period] : []));
  const evidence: ReportEvidence = {
    source: first.evidence.source,
    label: first.evidence.label,
    target: first.evidence.target,
    startedAt: shards.map((report) => report.evidence.startedAt).sort()[0] as string,
    ...(periods.length > 0 ? { period: { from: periods.map((each) => each.from).sort()[0] as string, to: periods.map((each) => each.to).sort().at(-1) as string } } : {}),
    specVersion: first.evidence.specVersion,
    parts: [...parts.values()].map(mergedPart),
  };
  // Named with its period, so a certificate counting two periods' merged shards says which is which.
  return { file: `${shards.map((report) => report.file).join(' + ')}${period ? ` (${periodText(evidence.period)})` : ''}`, evidence };
}

/** What one process would have said of the part, from what each shard said of it. */
function mergedPart(parts: readonly PartEvidence[]): PartEvidence {
  const latest = parts.map((part) => part.checkedAt).sort().at(-1) as string;
  const first = (result: RuleVerdict): PartEvidence | undefined => parts.find((part) => part.result === result);
  const decided = first('fail') ?? first('warn') ?? first('partly-checked') ?? first('observed') ?? first('pass');
  const part = decided ?? (parts[0] as PartEvidence);
  return { ...part, checkedAt: decided?.checked ? latest : part.checkedAt };
}
