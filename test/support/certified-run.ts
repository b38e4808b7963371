/**
 * A certify run's report built by the verdict model from known outcomes, with its evidence: every service rule
 * held in one file, PLAN-FREE's minute held, and its day as asked. The certificate's tests judge such runs
 * together; the badge's and the job summary's read what the certificate made of them.
 */
import { catalogue } from '../../lib/rules.ts';
import type { CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { partsOf } from '../../lib/verdicts/evidence.ts';
import type { EvidenceReport } from '../../lib/verdicts/evidence-files.ts';
import { buildReport, type RunMetadata } from '../../lib/verdicts/model.ts';
import { emptyRecord, type TestOutcome, type TestRecord } from '../../lib/verdicts/test-record.ts';

export const DAY_MS = 86_400_000;

/** A test of `rule` in `file` that ended as `outcome`, citing `also` too (a plan's day test also cites RL-1). */
export function certifiedRecord(file: string, rule: string, outcome: TestOutcome, at: Date, also: readonly string[] = []): TestRecord {
  const title = `${rule} MUST a test in ${file}`;
  return {
    ...emptyRecord({ id: `${file}-${rule}`, title, fullTitle: title, file, line: 1, project: 'p', outcome, rules: [rule, ...also], unknownRules: [], titleLevel: undefined, ranThrough: false }),
    ...(outcome === 'passed' || outcome === 'failed' ? { startedAt: at.toISOString() } : {}),
    ...(outcome === 'skipped' ? { skipReason: 'set PETSTORE_QUOTA_TESTS=1 to run the tests that use up a daily quota' } : {}),
    ...(outcome === 'failed' ? { failures: [{ rules: [rule], message: `[${rule}] expected no more than 1,000 requests admitted in a day, request 1,001 was admitted` }] } : {}),
  };
}

/**
 * A run of `target` at `at`: every service rule held in one file, PLAN-FREE's minute held, its day as `day`
 * says, and the `more` tests.
 */
export function certifiedRun(target: string, at: Date, day: TestOutcome, label = 'run', more: readonly TestRecord[] = []): CertifiedReport {
  const records = [
    ...catalogue.rules.filter((rule) => rule.subject === 'service' && rule.id !== 'PLAN-FREE' && !rule.appliesWhen).map((rule) => certifiedRecord('specs/functional/all.spec.ts', rule.id, 'passed', at)),
    certifiedRecord('specs/rate-limits/minute-limits.spec.ts', 'PLAN-FREE', 'passed', at),
    certifiedRecord('specs/rate-limits/daily-quota.spec.ts', 'PLAN-FREE', day, at),
    ...more,
  ];
  const meta: RunMetadata = { targetUrl: target, bundled: false, readOnly: false, quotaTests: day !== 'skipped', suiteVersion: '0.1.0', specVersion: catalogue.specVersion, gitCommit: 'x', rulesHash: 'y' };
  const report = buildReport(records, catalogue, meta, { status: 'passed', startedAt: at.toISOString(), durationMs: 1, generatedAt: at.toISOString() });
  return { ...report, evidence: { source: 'certify', label, target: { baseUrl: target }, startedAt: at.toISOString(), specVersion: report.specVersion, parts: partsOf(records, meta, at.toISOString()) } };
}

export const asEvidence = (report: CertifiedReport, file: string): EvidenceReport => ({ file, evidence: report.evidence! });
