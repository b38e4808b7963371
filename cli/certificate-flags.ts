/**
 * certify's certificate flags (--evidence, --max-age, --out-of-scope, --staging-url, --label) as the variables
 * the conformance reporter reads, checked before anything runs: bad evidence, an age or a scope that cannot be
 * read is one line and exit 2. Evidence paths are made absolute, as the suite runs from the package's folder.
 */
import path from 'node:path';
import { certificateSettingsFromEnv, listOf } from '../lib/verdicts/certificate-settings.ts';
import { EvidenceInputError, readEvidence } from '../lib/verdicts/evidence-files.ts';
import { UsageError } from './usage-error.ts';

export interface CertificateFlags {
  evidence?: string[];
  'max-age'?: string;
  'out-of-scope'?: string[];
  'staging-url'?: string;
  label?: string;
}

export function certificateEnv(values: CertificateFlags, env: NodeJS.ProcessEnv, cwd: string): Record<string, string> {
  const variables = {
    ...(values.evidence ? { PETSTORE_EVIDENCE: [...listOf(env.PETSTORE_EVIDENCE), ...values.evidence].map((given) => path.resolve(cwd, given)).join('\n') } : {}),
    ...(values['max-age'] !== undefined ? { PETSTORE_MAX_AGE: values['max-age'] } : {}),
    ...(values['out-of-scope'] ? { PETSTORE_OUT_OF_SCOPE: [...listOf(env.PETSTORE_OUT_OF_SCOPE), ...values['out-of-scope']].join(',') } : {}),
    ...(values['staging-url'] !== undefined ? { PETSTORE_STAGING_BASE_URL: values['staging-url'] } : {}),
    ...(values.label !== undefined ? { PETSTORE_RUN_LABEL: values.label } : {}),
  };
  try {
    // Read as given, so that a refusal names the file as the caller wrote it.
    readEvidence([...listOf(env.PETSTORE_EVIDENCE), ...(values.evidence ?? [])], cwd);
    certificateSettingsFromEnv({ ...env, ...variables });
  } catch (error) {
    if (!(error instanceof EvidenceInputError)) throw error;
    const flag = (variable: string, name: string) => (text: string) => text.replace(new RegExp(`^${variable}`), name);
    const message = [flag('PETSTORE_MAX_AGE', '--max-age'), flag('PETSTORE_OUT_OF_SCOPE', '--out-of-scope'), flag('PETSTORE_EVIDENCE', '--evidence'), flag('PETSTORE_STAGING_BASE_URL', '--staging-url')].reduce((text, rename) => rename(text), error.message);
    throw new UsageError(`certify: ${message}`);
  }
  return variables;
}
