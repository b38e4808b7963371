/**
 * The judge's capture read ahead: a HAR large enough to be read on its own thread starts being read before the judge's
 * code is loaded, which on this machine takes about as long as the thread needs for its first entries (the judging
 * thread otherwise waited ~150 ms for them). Only a command line the judge will take starts it; anything else is left
 * to the judge, which says what is wrong.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { harEntryBytesInWorkerAhead } from '../lib/capture/har-in-worker.ts';
import { HAR_IN_WORKER_BYTES } from '../lib/capture/read.ts';
import { parseCommandFlags } from '../lib/cli/vocabulary.ts';
import { judgeFormat } from '../harness/judge/judge-format.ts';
import { JUDGE_FLAGS } from './judge-flags.ts';

export function readJudgedCaptureAhead(args: readonly string[], cwd: string): void {
  let capture: string;
  let format: string | undefined;
  try {
    const { values, positionals } = parseCommandFlags(JUDGE_FLAGS, args, { allowPositionals: true, warn: () => {} });
    if (values.help || positionals.length !== 1) return;
    capture = path.resolve(cwd, positionals[0] as string);
    format = values.format;
  } catch {
    return;
  }
  if ((format ?? judgeFormat(capture)) !== 'har') return;
  try {
    const file = statSync(capture);
    if (!file.isFile() || file.size < HAR_IN_WORKER_BYTES) return;
  } catch {
    return;
  }
  harEntryBytesInWorkerAhead(capture, true);
}
