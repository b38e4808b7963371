/**
 * `certify --summary FILE`: the run's conformance.json turned into the Markdown of specs/reporter/job-summary.ts
 * and appended to FILE, as GitHub Actions expects of $GITHUB_STEP_SUMMARY. A run that wrote no report (it
 * could not start) still leaves a line saying so, so the summary never claims less than happened.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { jobSummary, type SummaryLinks } from '../specs/reporter/job-summary.ts';
import type { ConformanceReport } from '../lib/verdicts/model.ts';
import { errorLine } from '../lib/cli/vocabulary.ts';

export function writeJobSummary(outputDir: string, summaryFile: string, env: NodeJS.ProcessEnv): void {
  const reportFile = path.join(outputDir, 'conformance.json');
  const markdown = existsSync(reportFile)
    ? jobSummary(JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport, linksFrom(env))
    : `## Pet Store conformance\n\n⚠️ **Not certified: the run wrote no report** (see the job's log).\n`;
  try {
    appendFileSync(summaryFile, `${markdown}\n`);
  } catch (error) {
    process.stderr.write(`${errorLine('certify', `cannot write the summary to ${summaryFile}: ${(error as Error).message}`)}\n`);
  }
}

/** GitHub Actions names the run's page in its environment; the spec's address comes from PETSTORE_SPEC_URL. */
function linksFrom(env: NodeJS.ProcessEnv): SummaryLinks {
  const links: SummaryLinks = {};
  if (env.PETSTORE_SPEC_URL && /^https?:\/\//.test(env.PETSTORE_SPEC_URL)) links.specUrl = env.PETSTORE_SPEC_URL;
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
    links.reportsUrl = `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  }
  return links;
}
