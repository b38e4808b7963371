/**
 * `petstore-conformance <command>`: one command for every part of the package. Each command runs in the
 * caller's working directory, so its reports land there, and exits with the part's own exit code.
 */
import { COMMANDS, HELP } from './commands.ts';
import { USAGE_EXIT_CODE, UsageError } from './usage-error.ts';

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
