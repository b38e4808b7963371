/**
 * How far a certificate leans on earlier reports, in the few words a badge and a job summary have room for:
 * the age of the oldest earlier check it counted, and whether the team left a MUST rule (or part) out of scope.
 * A run that certifies alone has neither, and its badge stays "conforming".
 */
import { roundedAge, type CertifiedReport, type PartStanding } from './certificate.ts';

export interface Provenance {
  /** The oldest check from an earlier report that the certificate counted; absent when this run alone stands. */
  oldestEvidenceMs?: number;
  /** A MUST rule that binds the target, or a part of one, was declared out of scope. */
  scoped: boolean;
}

/** A part whose standing (held or failed) an earlier report gave, not this run. */
export function fromEarlierReport(part: PartStanding): boolean {
  return (part.state === 'held' || part.state === 'failed') && part.by?.file !== undefined;
}

/** Undefined when the report has no certificate (no --evidence, no --out-of-scope). */
export function provenanceOf(report: CertifiedReport): Provenance | undefined {
  const certificate = report.certificate;
  if (!certificate) return undefined;
  const binding = new Set(report.rules.filter((row) => row.level === 'MUST' && row.applies && row.subject === 'service').map((row) => row.id));
  const ages = certificate.rules.flatMap((rule) => rule.parts.filter(fromEarlierReport).map((part) => part.by!.ageMs));
  const scoped = certificate.rules.some((rule) => binding.has(rule.id) && (rule.verdict === 'not-in-scope' || rule.parts.some((part) => part.state === 'not-in-scope')));
  return { ...(ages.length > 0 ? { oldestEvidenceMs: Math.max(...ages) } : {}), scoped };
}

/**
 * An age as a bound a badge can carry, rounded up so it never claims fresher evidence than there was:
 * "40m", "5h", "4d".
 */
export function ageBound(ms: number): string {
  const { count, unit } = roundedAge(ms);
  return `${count}${unit[0]}`;
}
