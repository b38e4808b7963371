/**
 * `certify`'s badge.svg, next to the run's conformance.json: the same shields-style badge the matrix gives each
 * implementation, so a CI job can publish the run's standing, and how old the evidence behind it is when the
 * certificate counted earlier reports. A run that wrote no report gets the grey "not certified".
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogue } from '../lib/rules.ts';
import type { CertifiedReport } from '../lib/verdicts/certificate.ts';
import { renderBadge } from '../matrix/badge.ts';
import { badgeSubject } from '../matrix/build-matrix.ts';
import { errorLine } from '../lib/cli/vocabulary.ts';

export function writeBadge(outputDir: string): void {
  const reportFile = path.join(outputDir, 'conformance.json');
  const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as CertifiedReport) : undefined;
  const svg = report ? renderBadge(badgeSubject(report), report.specVersion) : renderBadge({}, catalogue.specVersion);
  try {
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(path.join(outputDir, 'badge.svg'), svg);
  } catch (error) {
    process.stderr.write(`${errorLine('certify', `cannot write the badge to ${outputDir}: ${(error as Error).message}`)}\n`);
  }
}
