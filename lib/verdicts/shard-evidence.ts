/**
 * Reports of shards (judge or watch --shard i/n: n processes over the same traffic, each judging the keys whose
 * pseudonym hashes to it) merged into the one report a single process would have written, before a certificate
 * counts them: a part fails if any shard's fails (a certificate otherwise takes the newest report's word, and a
 * shard that passed later would hide another's failure); it is partly checked if any shard left some of it out;
 * it held if a shard checked it and none failed it; a shard whose keys never showed it says nothing of it. Shards
 * belong together by label, target, spec version and count: every one of 1..n must be there, once.
 */
import type { PartEvidence, ReportEvidence } from './evidence.ts';
import type { RuleVerdict } from './model.ts';

export class ShardEvidenceError extends Error {}

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
  return [...whole, ...[...groups.values()].map((group) => merged(group, flag))];
}

function merged(group: readonly EvidenceReport[], flag: string): EvidenceReport {
  const first = group[0] as EvidenceReport;
  const count = first.evidence.shard?.count ?? 1;
  const what = `"${first.evidence.label}" of ${first.evidence.target.baseUrl}`;
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
  const evidence: ReportEvidence = {
    source: first.evidence.source,
    label: first.evidence.label,
    target: first.evidence.target,
    startedAt: shards.map((report) => report.evidence.startedAt).sort()[0] as string,
    specVersion: first.evidence.specVersion,
    parts: [...parts.values()].map(mergedPart),
  };
  return { file: shards.map((report) => report.file).join(' + '), evidence };
}

/** What one process would have said of the part, from what each shard said of it. */
function mergedPart(parts: readonly PartEvidence[]): PartEvidence {
  const latest = parts.map((part) => part.checkedAt).sort().at(-1) as string;
  const first = (result: RuleVerdict): PartEvidence | undefined => parts.find((part) => part.result === result);
  const decided = first('fail') ?? first('warn') ?? first('partly-checked') ?? first('observed') ?? first('pass');
  const part = decided ?? (parts[0] as PartEvidence);
  return { ...part, checkedAt: decided?.checked ? latest : part.checkedAt };
}
