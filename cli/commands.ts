/** The package's commands and the help that lists them: `petstore-conformance --help`, and docs/reference/cli.md. */
import { helpText as loadHelp, LOAD_FLAGS } from '../harness/load/cli.ts';
import { RECORD_FLAGS, RECORD_USAGE } from '../harness/record/command.ts';
import { REPLAY_FLAGS, REPLAY_USAGE } from '../harness/replay/command.ts';
import type { CommandFlags } from '../lib/cli/vocabulary.ts';
import { CERTIFY_FLAGS, CERTIFY_HELP, certify } from './certify.ts';
import { CERTIFY_IMPLEMENTATIONS_FLAGS } from './certify-implementations.ts';
import { JUDGE_FLAGS, JUDGE_HELP, judge } from './judge.ts';
import { CERTIFY_CLIENT_FLAGS, CERTIFY_CLIENT_HELP, certifyClient } from './certify-client.ts';
import { record } from './record.ts';
import { SERVE_FLAGS, SERVE_HELP, serve } from './serve.ts';
import { WATCH_FLAGS, WATCH_HELP, watch } from './watch.ts';
import { runScript } from '../lib/processes/child.ts';

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

/** load and replay parse their own flags (and print this help); the CLI hands them the arguments as given. */
const tool = (script: string, summary: string, help: string, flags: CommandFlags): Command => ({ summary, help, flags: [flags], run: (args) => runScript(script, args) });

export const COMMANDS: Record<string, Command> = {
  certify: { summary: 'run the conformance suite against --base-url and give a verdict, or certify every implementation of a file side by side', help: CERTIFY_HELP, flags: [CERTIFY_FLAGS, CERTIFY_IMPLEMENTATIONS_FLAGS], run: certify },
  'certify-client': { summary: "run your own client against a server that refuses it on purpose and judge the spec's client rules (ERR-3, ERR-4)", help: CERTIFY_CLIENT_HELP, flags: [CERTIFY_CLIENT_FLAGS], run: certifyClient },
  serve: { summary: 'start the bundled reference server', help: SERVE_HELP, flags: [SERVE_FLAGS], run: serve },
  load: tool('harness/load/main.ts', "drive traffic at a target and check each plan's quota from its headers", loadHelp(), LOAD_FLAGS),
  record: { summary: 'record traffic to a target through a proxy, keys left out; --judge judges it as it passes', help: RECORD_USAGE, flags: [RECORD_FLAGS], run: record },
  replay: tool('harness/replay/main.ts', 'replay a recording against a target and check every response', REPLAY_USAGE, REPLAY_FLAGS),
  judge: { summary: 'judge recorded traffic (HAR, NDJSON, a gateway log) against every rule traffic can show', help: JUDGE_HELP, flags: [JUDGE_FLAGS], run: judge },
  watch: { summary: "judge a gateway's access log live, through rotations and restarts, with Prometheus metrics on /metrics", help: WATCH_HELP, flags: [WATCH_FLAGS], run: watch },
};

export const HELP = `usage: petstore-conformance <command> [options]
       petstore-conformance help <command> | --help | --version

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(15)}${command.summary}`)
  .join('\n')}

petstore-conformance help <command> (or <command> --help) describes a command; --version (-V) prints the
package's version. Reports go under the current folder (./reports/).`;
