/**
 * The judge's conformance report written as the suite writes its own (specs/reporter): index.html,
 * conformance.json, junit.xml, and the job summary on request, keys redacted once more. The exit code is
 * the suite's: 0 Conforming, 1 Not conforming, 3 Not certified.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { junitXml } from '../harness/judge/junit.ts';
import type { Shard } from '../harness/judge/shard.ts';
import type { ConformanceReport } from '../lib/verdicts/model.ts';
import type { CertifiedReport } from '../lib/verdicts/certificate.ts';
import { evidenceOfRows, evidenceTarget, type TrafficPeriod } from '../lib/verdicts/evidence.ts';
import { exitCodeFor } from '../specs/reporter/exit-code.ts';
import { jobSummary } from '../specs/reporter/job-summary.ts';
import { redactDeep, reportRedactor } from '../specs/reporter/report-redaction.ts';
import { renderReport } from '../specs/reporter/report-html.ts';

export interface ReportPlaces {
  /** Absolute. */
  outputDir: string;
  /** Absolute; undefined when no summary was asked for. */
  summaryFile: string | undefined;
}

/** Writes the reports, prints the verdict line, and returns the exit code the verdict calls for. */
export function writeJudgeReports(raw: ConformanceReport, places: ReportPlaces, env: NodeJS.ProcessEnv): number {
  const redactor = reportRedactor(env);
  const report = redactDeep(raw, redactor);
  mkdirSync(places.outputDir, { recursive: true });
  writeFileSync(path.join(places.outputDir, 'conformance.json'), redactor.text(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(path.join(places.outputDir, 'index.html'), redactor.text(renderReport(report)));
  writeFileSync(path.join(places.outputDir, 'junit.xml'), redactor.text(junitXml(report)));
  if (places.summaryFile) appendFileSync(places.summaryFile, `${redactor.text(jobSummary(report))}\n`);
  const failing = report.rules.filter((row) => row.verdict === 'fail').map((row) => `  ${row.id} failed: ${row.failures[0]?.text ?? ''}\n`);
  process.stdout.write(`\nJudged: ${report.verdict.headline}\n${failing.join('')}Report: ${path.relative(process.cwd(), path.join(places.outputDir, 'index.html')) || 'index.html'}\n`);
  return exitCodeFor(report.verdict.state, 'passed', env);
}

/**
 * A report of judged traffic as evidence a certificate counts: of --base-url's target when given, under `label`,
 * covering `period` of the traffic when known.
 */
export function asTrafficEvidence(report: ConformanceReport, baseUrl: string | undefined, label: string, shard?: Shard, period?: TrafficPeriod): CertifiedReport {
  const target = evidenceTarget(baseUrl ?? report.target.url);
  const evidence = { ...evidenceOfRows(report, 'judge', label, target, 'traffic'), ...(period ? { period } : {}) };
  return {
    ...report,
    target: { ...report.target, ...(baseUrl ? { url: baseUrl, baseUrl } : {}) },
    evidence: shard && shard.count > 1 ? { ...evidence, shard: { index: shard.index, count: shard.count } } : evidence,
  };
}
