/**
 * The run's report with its evidence (what it checked, part by part, when, of which target) and, when the
 * environment asks for one (PETSTORE_EVIDENCE, PETSTORE_MAX_AGE, PETSTORE_OUT_OF_SCOPE, PETSTORE_STAGING_BASE_URL),
 * the certificate made from it and the earlier reports: its verdict is then the run's verdict and exit code.
 */
import { makeCertificate, type CertifiedReport } from '../../lib/verdicts/certificate.ts';
import { certificateSettingsFromEnv } from '../../lib/verdicts/certificate-settings.ts';
import { evidenceTarget, partsOf } from '../../lib/verdicts/evidence.ts';
import { readEvidence } from '../../lib/verdicts/evidence-files.ts';
import type { ConformanceReport, RunMetadata } from '../../lib/verdicts/model.ts';
import type { TestRecord } from '../../lib/verdicts/test-record.ts';

export function certifiedReport(report: ConformanceReport, records: readonly TestRecord[], meta: RunMetadata, env: NodeJS.ProcessEnv, now: Date): CertifiedReport {
  const settings = certificateSettingsFromEnv(env);
  const withEvidence: CertifiedReport = {
    ...report,
    evidence: {
      source: 'certify',
      label: settings.label,
      target: evidenceTarget(meta.targetUrl, settings.serviceVersion),
      startedAt: report.run.startedAt,
      specVersion: report.specVersion,
      parts: partsOf(records, meta, report.run.startedAt),
    },
  };
  if (!settings.certificate) return withEvidence;
  const { evidence: paths, ...options } = settings.certificate;
  const { certificate, verdict } = makeCertificate(withEvidence, readEvidence(paths, process.cwd(), 'PETSTORE_EVIDENCE'), { ...options, now });
  return { ...withEvidence, verdict, certificate };
}
