/**
 * A problem with what the user asked for (a flag, a scenario file, a key, the target's address): reported
 * as one line and exit code 2, never as a stack trace.
 */
export class InputError extends Error {
  override name = 'InputError';
}
