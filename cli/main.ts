/**
 * `petstore-conformance <command>`: one command for every part of the package. Each command runs in the
 * caller's working directory, so its reports land there, and exits with the part's own exit code.
 */
import { SUITE_VERSION } from '../specs/support/suite-version.ts';
import { COMMANDS, HELP, type Command } from './commands.ts';
import { USAGE_EXIT_CODE, UsageError } from './usage-error.ts';
import { errorLine } from '../lib/cli/vocabulary.ts';
import { EXIT } from '../lib/docs/exit-codes.ts';

function commandNamed(name: string): Command {
  if (name.startsWith('-')) throw new UsageError(`unknown option ${name}; the options are --help and --version, the commands ${Object.keys(COMMANDS).join(', ')} (see petstore-conformance --help)`);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"; the commands are ${Object.keys(COMMANDS).join(', ')} (see petstore-conformance --help)`);
  return command;
}

/** The command being run, for the prefix of its error lines; undefined until one is named. */
let running: string | undefined;

/**
 * Bare, the command prints its help and exits 0, as --help does: whoever types the name alone is asking what
 * it does, and nothing failed. A usage error (an unknown command, a bad flag) exits 2. `--version` prints the
 * package's version wherever it stands before a `--`: `certify --version` is asking the same thing.
 */
async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (name === '--version' || name === '-V' || (name !== undefined && Object.hasOwn(COMMANDS, name) && (own.includes('--version') || own.includes('-V')))) {
    process.stdout.write(`${SUITE_VERSION}\n`);
    return 0;
  }
  if (name === 'help' && rest.length > 0) {
    if (rest.length > 1) throw new UsageError(`help takes one command, not "${rest.join(' ')}"`);
    process.stdout.write(`${commandNamed(rest[0]!).help}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const command = commandNamed(name);
  running = name;
  return command.run(rest);
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
