/**
 * `--keys-file FILE` (PETSTORE_KEYS_FILE): the keys in a file instead of the environment, one variable a line
 * as the environment would hold them (`PETSTORE_API_KEY_FREE=key-1,key-2`; blank lines and `#` comments
 * skipped), for a machine where keys live in a secrets file rather than in a job's variables. The file's keys
 * stand in for those variables. Anything else in it (another variable, a line that is not NAME=VALUE) is
 * refused with its line number, never half-read; so is a file that is not there.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { SettingsOfPart } from '../docs/setting-docs.ts';

export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

const KEY_VARIABLE = /^PETSTORE_API_KEY_[A-Z][A-Z_]*$/;

/** The key variables of the file the flag (or else PETSTORE_KEYS_FILE) names; none when neither names one. */
export function keysFileEnv(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const file = flag ?? (env.PETSTORE_KEYS_FILE?.trim() || undefined);
  if (file === undefined) return {};
  const source = flag === undefined ? `PETSTORE_KEYS_FILE ${file}` : `--keys-file ${file}`;
  if (!existsSync(file) || !statSync(file).isFile()) throw new KeysFileError(`${source}: no such file; give a file of PETSTORE_API_KEY_<PLAN>=key,key lines`);
  const variables: Record<string, string> = {};
  readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
      // The line is never quoted back: it may hold a key.
      if (!match) throw new KeysFileError(`${source}: line ${index + 1} is not NAME=VALUE; give PETSTORE_API_KEY_<PLAN>=key,key lines`);
      const [, name, value] = match;
      if (!KEY_VARIABLE.test(name!)) throw new KeysFileError(`${source}: line ${index + 1} sets ${name}, not a key; a keys file holds only PETSTORE_API_KEY_<PLAN> lines`);
      variables[name!] = value!.replace(/^(['"])(.*)\1$/, '$2');
    });
  return variables;
}

/** What docs/reference/settings.md says of it. */
export const KEYS_FILE_SETTINGS: SettingsOfPart = {
  part: 'Every command that takes keys (`--keys-file`: certify, serve, load, record, replay, judge)',
  read: (env) => keysFileEnv(undefined, env),
  settings: [
    {
      name: 'PETSTORE_KEYS_FILE',
      default: 'unset: the keys are the PETSTORE_API_KEY_<PLAN> variables',
      check: 'a file of PETSTORE_API_KEY_<PLAN>=key,key lines (blank lines, # comments and export allowed); any other line is refused by its number',
      meaning: 'The keys in a file instead of the environment (`--keys-file`): its PETSTORE_API_KEY_<PLAN> lines stand in for those variables.',
      refused: '/nonexistent/keys.env',
    },
  ],
};
