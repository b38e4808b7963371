import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Node's parseArgs, strict, with its error cut to the sentence that names the flag and a pointer to --help. */
export function parseFlags<T extends Options>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const reason = (error as Error).message.split(/\.\s/)[0] ?? String(error);
    throw new UsageError(`${command}: ${reason} (see petstore-conformance ${command} --help)`);
  }
}
