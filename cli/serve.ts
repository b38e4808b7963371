/**
 * `petstore-conformance serve`: the bundled reference server, configured as `npm run serve` is (the
 * environment), with --port and --host as the two settings a caller most often changes.
 */
import { runScript } from '../lib/processes/child.ts';
import { parseFlags } from './flags.ts';
import { exitCodeHelp } from '../lib/docs/exit-codes.ts';
import { SERVER_EXIT_CODES } from '../reference-server/exit-codes.ts';
import { UsageError } from './usage-error.ts';
import { commandFlags } from '../lib/cli/vocabulary.ts';

/** serve is the target, so it takes no --base-url: it prints its own. */
export const SERVE_FLAGS = commandFlags('serve', ['port', 'host', 'help']);

export const SERVE_HELP = `usage: petstore-conformance serve [--port N] [--host HOST]

Starts the Pet Store reference server and prints its base URL; Ctrl-C stops it.
  --port N       the port (default 8080, same as PORT; 0 picks a free one)
  --host HOST    the address to listen on (default 127.0.0.1, same as HOST)
  -h, --help     this text
Keys: PETSTORE_API_KEY_<PLAN>, else the documented demo keys. Time: PETSTORE_TIME_SCALE=60 makes a minute
window last one second. Logs: PETSTORE_LOG=json (default) or off. Every variable: docs/reference/settings.md.
${exitCodeHelp(SERVER_EXIT_CODES)}`;

export function serve(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseFlags(SERVE_FLAGS, args);
  if (positionals.length > 0) throw new UsageError(`serve: unexpected argument "${positionals[0]}" (see petstore-conformance serve --help)`);
  if (values.help) {
    process.stdout.write(`${SERVE_HELP}\n`);
    return Promise.resolve(0);
  }
  return runScript('reference-server/main.ts', [], {
    ...process.env,
    ...(values.port !== undefined ? { PORT: values.port } : {}),
    ...(values.host !== undefined ? { HOST: values.host } : {}),
  });
}
