/**
 * The server a replay talks to: PETSTORE_BASE_URL with keys from PETSTORE_API_KEY_<PLAN>, or, when that is
 * unset, the bundled reference server started for this replay alone (it accepts the demo keys).
 */
import { DEMO_KEYS, keysFromEnv, type KeysByPlan } from '../../lib/keys.ts';
import { baseUrlFromEnv } from '../../lib/target.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { assertReachable, InputError } from '../../lib/cli/command-line.ts';
import type { SettingsOfPart } from '../../lib/docs/setting-docs.ts';

export interface ReplayTarget {
  baseUrl: string;
  bundled: boolean;
  stop(): Promise<void>;
}

/** The base URL named by the environment (undefined: the bundled server) and the keys to use with it. */
export function targetSettings(env: NodeJS.ProcessEnv): { baseUrl: string | undefined; keys: KeysByPlan } {
  try {
    const baseUrl = baseUrlFromEnv(env);
    return { baseUrl, keys: baseUrl === undefined ? keysFromEnv(env, DEMO_KEYS) : keysFromEnv(env) };
  } catch (error) {
    throw new InputError((error as Error).message);
  }
}

/** The target named, once it answers; or the bundled server, configured from the PETSTORE_* variables of `env`. */
export async function startTarget(baseUrl: string | undefined, env: NodeJS.ProcessEnv): Promise<ReplayTarget> {
  if (baseUrl !== undefined) {
    await assertReachable(baseUrl, 'the target');
    return { baseUrl, bundled: false, stop: async () => undefined };
  }
  const petstore = Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('PETSTORE_') && entry[1] !== undefined);
  const server = await spawnReferenceServer({ env: Object.fromEntries(petstore) });
  return { baseUrl: server.baseUrl, bundled: true, stop: server.stop };
}

/** What docs/reference/settings.md says of the variables record and replay read (npm run docs:reference). */
export const RECORD_REPLAY_SETTINGS: SettingsOfPart = {
  part: 'Record and replay (`npm run record`, `npm run replay`, `petstore-conformance record`, `replay`)',
  read: (env) => targetSettings(env as NodeJS.ProcessEnv),
  settings: [
    {
      name: 'PETSTORE_BASE_URL',
      default: 'unset: replay starts a reference server for the replay alone, with the demo keys (and the other PETSTORE_* variables of the environment)',
      check: 'an http:// or https:// URL without query or fragment',
      meaning: 'The target, `/v1` included: the one a capture is replayed against, or the server record records; `--base-url` overrides it.',
      refused: 'mailto:pets@example.com',
    },
    {
      name: 'PETSTORE_API_KEY_<PLAN>',
      default: 'the demo keys against the bundled server',
      check: 'comma-separated keys of visible ASCII, no spaces',
      meaning: 'Replay: the n-th key of a plan replaces the placeholder `$PETSTORE_API_KEY_<PLAN>#n`. Record: the keys whose plan the recorder names (it also knows the demo keys).',
      refused: 'key with space',
    },
  ],
};
