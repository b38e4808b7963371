/** The server process's exit codes, used by main.ts and given by `serve --help` and docs/reference/exit-codes.md. */
import type { ExitCode } from '../lib/docs/exit-codes.ts';

export const STOPPED = 0;
export const CANNOT_LISTEN = 1;
export const BAD_SETTING = 2;

export const SERVER_EXIT_CODES: readonly ExitCode[] = [
  { code: STOPPED, when: 'stopped by SIGTERM or Ctrl-C, open requests finished' },
  { code: CANNOT_LISTEN, when: 'cannot listen (the port is in use)' },
  { code: BAD_SETTING, when: 'a bad setting, named in one line on stderr' },
];
