/**
 * What runs each command, loaded only when that command runs: `judge` imports the judge, not the suite's
 * runner, the load engines or the watcher. The names here are the package's commands; cli/commands.ts gives
 * each its summary, help and flags (which the help, the reference page and the tests read).
 */
import { COMMAND_NAMES, type CommandName } from '../lib/cli/vocabulary.ts';
import { runScript } from '../lib/processes/child.ts';

export type CommandRun = (args: readonly string[]) => Promise<number>;

export const COMMAND_RUNNERS: Readonly<Record<CommandName, () => Promise<CommandRun>>> = {
  certify: async () => (await import('./certify.ts')).certify,
  'certify-client': async () => (await import('./certify-client.ts')).certifyClient,
  serve: async () => (await import('./serve.ts')).serve,
  // load and replay parse their own flags (and print their help): they are handed the arguments as given.
  load: async () => (args: readonly string[]) => runScript('harness/load/main.ts', args),
  record: async () => (await import('./record.ts')).record,
  replay: async () => (args: readonly string[]) => runScript('harness/replay/main.ts', args),
  // judge starts reading a large HAR before its own code loads (judge-read-ahead.ts).
  judge: async () => async (args: readonly string[]) => {
    (await import('./judge-read-ahead.ts')).readJudgedCaptureAhead(args, process.cwd());
    return (await import('./judge.ts')).judge(args);
  },
  watch: async () => (await import('./watch.ts')).watch,
};

export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}
