/**
 * What the record and replay commands share as command-line programs: options parsed strictly, and every
 * failure said in one line (exit 2 for bad input, 4 for a fault of the tool), never as a stack trace.
 */
import { connect } from 'node:net';
import { EXIT } from '../docs/exit-codes.ts';
import { errorLine, FlagError, parseCommandFlags, type CommandFlags, type FlagName, type ParsedFlags } from './vocabulary.ts';
import { CaptureInputError } from '../capture/read.ts';
import { KeysFileError, keysFileEnv } from './keys-file.ts';

/** Input the user can fix: a flag, a file, a variable, a target. Exit code 2. */
export class InputError extends Error {
  override name = 'InputError';
}

/** The command's flags as the vocabulary declares them; bad input becomes an InputError (exit 2). */
export function parseOptions<F extends FlagName>(declared: CommandFlags<F>, args: readonly string[], allowPositionals: boolean): ParsedFlags<F> {
  try {
    return parseCommandFlags(declared, args, { allowPositionals });
  } catch (error) {
    if (error instanceof FlagError) throw new InputError(error.message);
    throw error;
  }
}

/** The environment with the keys of --keys-file (or PETSTORE_KEYS_FILE) in it; a bad file is an InputError. */
export function withKeysFile(flag: string | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  try {
    return { ...env, ...keysFileEnv(flag, env) };
  } catch (error) {
    if (error instanceof KeysFileError) throw new InputError(error.message);
    throw error;
  }
}

/** Runs a command's main function and turns what it throws into one line on stderr and an exit code. */
export function runCli(command: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const isInput = error instanceof InputError || error instanceof CaptureInputError;
      process.stderr.write(`${errorLine(command, error instanceof Error ? error.message : String(error))}\n`);
      process.exit(isInput ? EXIT.badInput : EXIT.fault);
    },
  );
}

export function wholeNumberOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) throw new InputError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return number;
}

/** Resolves when a TCP connection to the URL's host and port opens; a one-line InputError otherwise. */
export function assertReachable(url: string, what: string, timeoutMs = 3_000): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const portNumber = Number(port || (protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: portNumber });
    const fail = (reason: string): void => {
      socket.destroy();
      reject(new InputError(`cannot reach ${what} ${safeUrl(url)}: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no connection within ${timeoutMs / 1000} s`));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ECONNREFUSED' ? 'connection refused (is it running?)' : error.code === 'ENOTFOUND' ? 'unknown host' : error.message),
    );
  });
}

/** A URL fit to print: user and password, if any, removed. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}
