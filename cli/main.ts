/**
 * `petstore-conformance <command>`: one command for every part of the package. Each command runs in the
 * caller's working directory, so its reports land there, and exits with the part's own exit code.
 */
import { SUITE_VERSION } from '../specs/support/suite-version.ts';
import { COMMANDS, HELP, type Command } from './commands.ts';
import { USAGE_EXIT_CODE, UsageError } from './usage-error.ts';

function commandNamed(name: string): Command {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"; the commands are ${Object.keys(COMMANDS).join(', ')} (see petstore-conformance --help)`);
  return command;
}

/**
 * Bare, the command prints its help and exits 0, as --help does: whoever types the name alone is asking what
 * it does, and nothing failed. A usage error (an unknown command, a bad flag) exits 2.
 */
async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === '--version' || name === '-V') {
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
  return commandNamed(name).run(rest);
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
