import { FlagError, parseCommandFlags, type CommandFlags, type FlagName, type ParsedFlags } from '../lib/cli/vocabulary.ts';
import { UsageError } from './usage-error.ts';
import { KeysFileError, keysFileEnv } from '../lib/cli/keys-file.ts';

/** The command's flags parsed as the vocabulary declares them; bad input becomes a UsageError (exit 2), one line. */
export function parseFlags<F extends FlagName>(declared: CommandFlags<F>, args: readonly string[], { allowPositionals = true } = {}): ParsedFlags<F> {
  try {
    return parseCommandFlags(declared, args, { allowPositionals });
  } catch (error) {
    if (error instanceof FlagError) throw new UsageError(`${declared.command}: ${error.message}`);
    throw error;
  }
}

/** The keys of --keys-file (or PETSTORE_KEYS_FILE) as variables; a bad file is a UsageError (exit 2), one line. */
export function keysFileFlag(command: string, flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  try {
    return keysFileEnv(flag, env);
  } catch (error) {
    if (error instanceof KeysFileError) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
}
