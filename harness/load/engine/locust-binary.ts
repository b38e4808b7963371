/**
 * Where Locust is: $PETSTORE_LOCUST, `locust` on the PATH, Debian's /usr/bin/locust, or the copy this
 * package fetched on first use into a virtual environment under the user's cache. It is never a dependency
 * of the package: only a run with --engine locust looks for it, and fetches it with pip when it is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { InputError } from '../input-error.ts';

/** The oldest Locust the generated locustfile was checked with (Debian 12's package). */
export const LOCUST_REQUIREMENT = 'locust>=2.12';

export function locustCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'petstore-conformance', 'locust');
}

export function findLocust(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PETSTORE_LOCUST) {
    if (!existsSync(env.PETSTORE_LOCUST)) throw new InputError(`PETSTORE_LOCUST names ${env.PETSTORE_LOCUST}, which does not exist`);
    return env.PETSTORE_LOCUST;
  }
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'locust'));
  return [...onPath, '/usr/bin/locust', join(locustCacheDir(env), 'bin', 'locust')].find((path) => existsSync(path));
}

const MISSING = `the locust engine needs Locust: pip install "${LOCUST_REQUIREMENT}" (or apt-get install python3-locust), or set PETSTORE_LOCUST to its path`;

/** Locust's path, fetched with pip into the cache on first use; one line of InputError when that cannot be done. */
export function ensureLocust(say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): string {
  const found = findLocust(env);
  if (found) return found;
  const python = ['python3', 'python'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!python) throw new InputError(`${MISSING} (no python3 found to fetch it)`);
  const venv = locustCacheDir(env);
  say(`Locust is not installed: fetching ${LOCUST_REQUIREMENT} with pip into ${venv} (once)…`);
  try {
    execFileSync(python, ['-m', 'venv', venv], { stdio: 'ignore' });
    execFileSync(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--retries', '1', LOCUST_REQUIREMENT], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    throw new InputError(`${MISSING} (fetching it with pip failed)`);
  }
  const fetched = join(venv, 'bin', 'locust');
  if (!existsSync(fetched)) throw new InputError(MISSING);
  return fetched;
}

/** The Python that runs a Locust script (its #! line), to compile or test locustfile.py with Locust importable. */
export function pythonOfLocust(locust: string): string {
  const shebang = readFileSync(locust, 'utf8').slice(0, 300).split('\n')[0] ?? '';
  const python = shebang.startsWith('#!') ? shebang.slice(2).trim().split(/\s+/) : [];
  return python[0] === '/usr/bin/env' ? (python[1] ?? 'python3') : (python[0] ?? 'python3');
}
