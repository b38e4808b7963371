/**
 * `petstore-conformance <command>`: one command for every part of the package. Each command runs in the
 * caller's working directory, so its reports land there, and exits with the part's own exit code.
 */
import { SUITE_VERSION } from '../specs/support/suite-version.ts';
import { COMMAND_RUNNERS, isCommandName } from './command-runners.ts';
import { COMMAND_NAMES, type CommandName } from '../lib/cli/vocabulary.ts';
import { USAGE_EXIT_CODE, UsageError } from './usage-error.ts';
import { errorLine } from '../lib/cli/vocabulary.ts';
import { EXIT } from '../lib/docs/exit-codes.ts';

function commandNamed(name: string): CommandName {
  if (name.startsWith('-')) throw new UsageError(`unknown option ${name}; the options are --help and --version, the commands ${COMMAND_NAMES.join(', ')} (see petstore-conformance --help)`);
  if (!isCommandName(name)) throw new UsageError(`unknown command "${name}"; the commands are ${COMMAND_NAMES.join(', ')} (see petstore-conformance --help)`);
  return name;
}

/** The command being run, for the prefix of its error lines; undefined until one is named. */
let running: string | undefined;

/**
 * Bare, the command prints its help and exits 0, as --help does: whoever types the name alone is asking what
 * it does, and nothing failed. A usage error (an unknown command, a bad flag) exits 2. `--version` prints the
 * package's version wherever it stands before a `--`: `certify --version` is asking the same thing. The help of
 * every command is loaded only to be printed; a command run loads only what runs it.
 */
async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (name === '--version' || name === '-V' || (name !== undefined && isCommandName(name) && (own.includes('--version') || own.includes('-V')))) {
    process.stdout.write(`${SUITE_VERSION}\n`);
    return 0;
  }
  if (name === 'help' && rest.length > 0) {
    if (rest.length > 1) throw new UsageError(`help takes one command, not "${rest.join(' ')}"`);
    const named = commandNamed(rest[0]!);
    const { COMMANDS } = await import('./commands.ts');
    process.stdout.write(`${COMMANDS[named].help}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const { HELP } = await import('./commands.ts');
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const run = await COMMAND_RUNNERS[commandNamed(name)]();
  running = name;
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError;
    process.stderr.write(`${errorLine(running, error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = usage ? USAGE_EXIT_CODE : EXIT.fault;
  },
);
