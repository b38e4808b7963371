/**
 * `petstore-conformance serve`: the bundled reference server, configured as `npm run serve` is (the
 * environment), with flags for the settings a caller most often changes, each the same as its variable.
 * Every flag is checked here, before the server starts: a bad one is one line and exit 2.
 */
import { runScript } from '../lib/processes/child.ts';
import { keysFileFlag, parseFlags } from './flags.ts';
import { exitCodeHelp } from '../lib/docs/exit-codes.ts';
import { SERVER_EXIT_CODES } from '../reference-server/exit-codes.ts';
import { UsageError } from './usage-error.ts';
import { commandFlags, flagForms, notTakenHelp, type FlagName } from '../lib/cli/vocabulary.ts';

/** serve is the target, so it takes no --base-url: it prints its own. */
export const SERVE_FLAGS = commandFlags('serve', ['port', 'host', 'keys-file', 'clock-rate', 'time-scale', 'help']);

export const SERVE_HELP = `usage: petstore-conformance serve [--port N] [--host HOST] [--clock-rate N | --time-scale N]

Starts the Pet Store reference server and prints its base URL; Ctrl-C stops it.
  --port N         the port (default 8080, same as PORT; 0 picks a free one)
  --host HOST      the address to listen on (default 127.0.0.1, same as HOST)
  --keys-file F    the keys it accepts, PETSTORE_API_KEY_<PLAN>=key,key a line, instead of the environment
  --clock-rate N   run the server's clock N times faster: windows pass N times sooner and Reset and
                   Retry-After speak of that clock (same as PETSTORE_CLOCK_RATE; certify it with
                   certify --clock-rate N)
  --time-scale N   make a minute window last 1/N of a minute, headers still in real seconds (same as
                   PETSTORE_TIME_SCALE; load --time-scale N paces by it)
  -h, --help       this text
Keys: PETSTORE_API_KEY_<PLAN>, else the documented demo keys. Logs: PETSTORE_LOG=json (default) or off.
Every variable: docs/reference/settings.md.
${notTakenHelp('serve')}
${exitCodeHelp(SERVER_EXIT_CODES)}`;

/** The server's environment from serve's flags, each checked. */
export function serveEnv(args: readonly string[], given: Readonly<Record<string, string | undefined>> = {}): { help: boolean; env: Record<string, string> } {
  const { values, positionals } = parseFlags(SERVE_FLAGS, args);
  if (positionals.length > 0) throw new UsageError(`serve: unexpected argument "${positionals[0]}" (see petstore-conformance serve --help)`);
  if (values['clock-rate'] !== undefined && values['time-scale'] !== undefined) throw new UsageError('serve: --clock-rate and --time-scale both speed up time; give one of them');
  const checked = (flag: FlagName, text: string | undefined, ok: (value: number) => boolean): string | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+(\.\d+)?$/.test(text.trim()) || !ok(Number(text))) throw new UsageError(`serve: --${flag} takes ${flagForms(flag)}, not "${text}"`);
    return text.trim();
  };
  const port = checked('port', values.port, (value) => Number.isInteger(value) && value <= 65_535);
  const clockRate = checked('clock-rate', values['clock-rate'], (value) => value > 0);
  const timeScale = checked('time-scale', values['time-scale'], (value) => value > 0);
  return {
    help: values.help === true,
    env: {
      ...(port !== undefined ? { PORT: port } : {}),
      ...(values.host !== undefined ? { HOST: values.host } : {}),
      ...(clockRate !== undefined ? { PETSTORE_CLOCK_RATE: clockRate } : {}),
      ...(timeScale !== undefined ? { PETSTORE_TIME_SCALE: timeScale } : {}),
      ...keysFileFlag('serve', values['keys-file'], given),
    },
  };
}

export function serve(args: readonly string[]): Promise<number> {
  const { help, env } = serveEnv(args, process.env);
  if (help) {
    process.stdout.write(`${SERVE_HELP}\n`);
    return Promise.resolve(0);
  }
  return runScript('reference-server/main.ts', [], { ...process.env, ...env });
}
