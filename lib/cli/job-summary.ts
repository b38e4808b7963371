/**
 * `--summary FILE` of the commands whose verdict is not the conformance report's (load, replay): the lines the
 * command printed, as a section of a CI job's summary page (GitHub's $GITHUB_STEP_SUMMARY), appended so that
 * earlier steps' sections stay. The conformance report's own summary is specs/reporter/job-summary.ts.
 */
import { appendFileSync } from 'node:fs';

export function appendTextSummary(file: string, title: string, text: string): void {
  appendFileSync(file, `## ${title}\n\n\`\`\`text\n${text.trim()}\n\`\`\`\n\n`);
}
