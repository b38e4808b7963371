/**
 * The same target must get the same verdict on every run: the suite run again and again against one server,
 * each run's verdict and the input classes its generated properties sent set side by side. Used by the
 * ten-run demonstration (test/suite/repeat-verdicts.ts) and, in two runs of the generated project, by npm test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceReport } from '../../../lib/verdicts/model.ts';
import { SHRINKING_CLASS } from '../../../specs/support/generated/property.ts';
import { faultById } from './faults.ts';
import { knownCategoriesOnly, limitedNames, malformedIdsAnswered } from './legitimate-variants.ts';
import { runSuite, VARIANTS_OUTPUT } from './run-suite.ts';
import { startVariant, type VariantTarget } from './variant-target.ts';

export interface RepeatServer {
  description: string;
  start(): Promise<VariantTarget>;
}

/** Faults that show only on unusual inputs: what a run that tried them by chance would catch one time in some. */
export const UNUSUAL_INPUT_FAULTS = ['exotic-id-500', 'wrapped-id-served', 'plain-short-name-refused'];

export const REPEAT_SERVERS: Readonly<Record<'legitimate' | 'broken', RepeatServer>> = {
  legitimate: {
    description: 'legitimate "strict-validation": 400 for a malformed petId, names refused when empty, long, with control characters, surrounding spaces or astral characters, three categories',
    start: () => startVariant({ transforms: [() => malformedIdsAnswered(400), limitedNames, knownCategoriesOnly(3n)], timeScale: 20 }),
  },
  broken: {
    description: `broken on unusual inputs only: ${UNUSUAL_INPUT_FAULTS.map((id) => faultById(id).description).join('; ')}`,
    start: () => startVariant({ transforms: UNUSUAL_INPUT_FAULTS.map((id) => faultById(id).proxy!), timeScale: 20 }),
  },
};

export interface RunOutcome {
  run: number;
  headline: string;
  failedTests: string[];
  /** Each generated property with the input classes it sent: the same requests, run after run. */
  generatedClasses: string;
  seconds: number;
}

/**
 * Each run meets the server as started afresh: the same implementation in the same state, so that what a run
 * created cannot change the next one's requests (one long-lived store certified again and again:
 * certified-again-and-again.spec.ts).
 */
export async function repeatRuns(
  server: RepeatServer,
  runs: number,
  options: { label: string; project?: string; titles?: readonly string[]; onRun?: (outcome: RunOutcome) => void },
): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = [];
  for (let run = 1; run <= runs; run++) {
    const target = await server.start();
    try {
      const label = `${options.label}-${run}`;
      const result = await runSuite({ label, baseUrl: target.baseUrl, allReporters: true, ...(options.project ? { project: options.project } : {}), ...(options.titles ? { titles: options.titles } : {}), timeoutMs: 300_000 });
      const report = JSON.parse(readFileSync(path.join(VARIANTS_OUTPUT, label, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
      const outcome: RunOutcome = {
        run,
        headline: report.verdict.headline,
        failedTests: result.tests.filter((test) => test.status === 'failed' || test.status === 'timedOut').map((test) => test.title).sort(),
        // Shrinking is bounded in time: how many requests it takes is the target's speed, not the suite's choice.
        generatedClasses: JSON.stringify(report.generated.map((item) => [item.property, Object.entries(item.classes).filter(([name]) => name !== SHRINKING_CLASS)]).sort()),
        seconds: result.durationMs / 1000,
      };
      outcomes.push(outcome);
      options.onRun?.(outcome);
    } finally {
      await target.close();
    }
  }
  return outcomes;
}
