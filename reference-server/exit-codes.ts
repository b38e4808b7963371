/** The server process's exit codes, used by main.ts and given by `serve --help` and docs/reference/exit-codes.md. */
import { EXIT, type ExitCode } from '../lib/docs/exit-codes.ts';

export const STOPPED = EXIT.ok;
/** A port in use is bad input, as record's is: the caller picks another. */
export const CANNOT_LISTEN = EXIT.badInput;
export const BAD_SETTING = EXIT.badInput;

export const SERVER_EXIT_CODES: readonly ExitCode[] = [
  { code: STOPPED, when: 'stopped by SIGTERM or Ctrl-C, open requests finished' },
  { code: BAD_SETTING, when: 'a bad setting or flag, or a port in use (cannot listen), named in one line on stderr' },
];
