import { commandFlags } from '../lib/cli/vocabulary.ts';

/** Apart from the command, so that reading its capture can start before the judge's code is loaded (judge-read-ahead.ts). */
export const JUDGE_FLAGS = commandFlags('judge', ['base-url', 'keys-file', 'output', 'summary', 'format', 'clock-skew', 'label', 'shard', 'help']);
