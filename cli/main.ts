/**
 * `petstore-conformance <command>`: one command for every part of the package. Each command runs in the
 * caller's working directory, so its reports land there, and exits with the part's own exit code.
 */
import { certify } from './certify.ts';
import { runScript } from '../lib/processes/child.ts';
import { serve } from './serve.ts';
import { USAGE_EXIT_CODE, UsageError } from './usage-error.ts';

interface Command {
  summary: string;
  run(args: readonly string[]): Promise<number>;
}

/** load, record and replay parse their own flags (and --help); the CLI hands them the arguments as given. */
const tool = (script: string, summary: string): Command => ({ summary, run: (args) => runScript(script, args) });

const COMMANDS: Record<string, Command> = {
  certify: { summary: 'run the conformance suite against --base-url and give a verdict, or certify every implementation of a file side by side', run: certify },
  serve: { summary: 'start the bundled reference server', run: serve },
  load: tool('harness/load/main.ts', "drive traffic at a target and check each plan's quota from its headers"),
  record: tool('harness/record/main.ts', 'record traffic to a target through a proxy, keys left out'),
  replay: tool('harness/replay/main.ts', 'replay a recording against a target and check every response'),
};

const HELP = `usage: petstore-conformance <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(9)}${command.summary}`)
  .join('\n')}

petstore-conformance <command> --help describes a command. Reports go under the current folder (./reports/).`;

async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? USAGE_EXIT_CODE : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    throw new UsageError(`unknown command "${name}"; the commands are ${Object.keys(COMMANDS).join(', ')} (see petstore-conformance --help)`);
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`petstore-conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = usage ? USAGE_EXIT_CODE : 1;
  },
);
