/** Bad input on the command line: one line on stderr and exit code 2, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE_EXIT_CODE = 2;
