/** The package's commands and the help that lists them: `petstore-conformance --help`, and docs/reference/cli.md. */
import { helpText as loadHelp, LOAD_FLAGS } from '../harness/load/cli.ts';
import { RECORD_FLAGS, RECORD_USAGE } from '../harness/record/command.ts';
import { REPLAY_FLAGS, REPLAY_USAGE } from '../harness/replay/command.ts';
import type { CommandFlags, CommandName } from '../lib/cli/vocabulary.ts';
import { CERTIFY_FLAGS, CERTIFY_HELP } from './certify.ts';
import { CERTIFY_IMPLEMENTATIONS_FLAGS } from './certify-implementations.ts';
import { JUDGE_HELP } from './judge.ts';
import { JUDGE_FLAGS } from './judge-flags.ts';
import { CERTIFY_CLIENT_FLAGS, CERTIFY_CLIENT_HELP } from './certify-client.ts';
import { SERVE_FLAGS, SERVE_HELP } from './serve.ts';
import { WATCH_FLAGS, WATCH_HELP } from './watch.ts';
import { COMMAND_RUNNERS } from './command-runners.ts';

export interface Command {
  summary: string;
  /** What `petstore-conformance <command> --help` prints. */
  help: string;
  /**
   * The flags it parses, declared in the one vocabulary (lib/cli/vocabulary.ts), one list per way of calling
   * it: test/docs/vocabulary.spec.ts checks them against the meanings and against the help.
   */
  flags: readonly CommandFlags[];
  run(args: readonly string[]): Promise<number>;
}

/** A command as the help describes it; it runs what cli/command-runners.ts loads for it. */
const command = (name: CommandName, summary: string, help: string, flags: readonly CommandFlags[]): Command => ({ summary, help, flags, run: async (args) => (await COMMAND_RUNNERS[name]())(args) });

export const COMMANDS: Record<CommandName, Command> = {
  certify: command('certify', 'run the conformance suite against --base-url and give a verdict, or certify every implementation of a file side by side', CERTIFY_HELP, [CERTIFY_FLAGS, CERTIFY_IMPLEMENTATIONS_FLAGS]),
  'certify-client': command('certify-client', "run your own client against a server that refuses it on purpose and judge the spec's client rules (ERR-3, ERR-4)", CERTIFY_CLIENT_HELP, [CERTIFY_CLIENT_FLAGS]),
  serve: command('serve', 'start the bundled reference server', SERVE_HELP, [SERVE_FLAGS]),
  load: command('load', "drive traffic at a target and check each plan's quota from its headers", loadHelp(), [LOAD_FLAGS]),
  record: command('record', 'record traffic to a target through a proxy, keys left out; --judge judges it as it passes', RECORD_USAGE, [RECORD_FLAGS]),
  replay: command('replay', 'replay a recording against a target and check every response', REPLAY_USAGE, [REPLAY_FLAGS]),
  judge: command('judge', 'judge recorded traffic (HAR, NDJSON, a gateway log) against every rule traffic can show', JUDGE_HELP, [JUDGE_FLAGS]),
  watch: command('watch', "judge a gateway's access log live, through rotations and restarts, with Prometheus metrics on /metrics", WATCH_HELP, [WATCH_FLAGS]),
};

export const HELP = `usage: petstore-conformance <command> [options]
       petstore-conformance help <command> | --help | --version

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(15)}${command.summary}`)
  .join('\n')}

petstore-conformance help <command> (or <command> --help) describes a command; --version (-V) prints the
package's version. Reports go under the current folder (./reports/).`;
