/**
 * `petstore-conformance record`: the recording proxy, run in this process so that
 * `--judge` can write the suite's own HTML report, which lives a layer above the harness.
 */
import path from 'node:path';
import { CaptureInputError } from '../lib/capture/read.ts';
import { recordCommand } from '../harness/record/command.ts';
import { InputError } from '../lib/cli/command-line.ts';
import { runFacts } from './judge.ts';
import { writeJudgeReports } from './judge-reports.ts';
import { serveLive } from './live-server.ts';
import { UsageError } from './usage-error.ts';

export async function record(args: readonly string[]): Promise<number> {
  try {
    return await recordCommand([...args], process.env, {
      write: (report, places) => writeJudgeReports(report, { outputDir: path.resolve(places.outputDir), summaryFile: places.summaryFile === undefined ? undefined : path.resolve(places.summaryFile) }, process.env),
      serveLive: (live, report, port) => serveLive({ live, report, wording: { title: 'Pet Store conformance, recorded live', judgedAs: 'the traffic passes the recording proxy' }, env: process.env }, '127.0.0.1', port),
      facts: runFacts(),
    });
  } catch (error) {
    if (error instanceof InputError || error instanceof CaptureInputError) throw new UsageError(`record: ${error.message}`);
    throw error;
  }
}
