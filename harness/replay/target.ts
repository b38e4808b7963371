/**
 * The server a replay talks to: PETSTORE_BASE_URL with keys from PETSTORE_API_KEY_<PLAN>, or, when that is
 * unset, the bundled reference server started for this replay alone (it accepts the demo keys).
 */
import { DEMO_KEYS, keysFromEnv, type KeysByPlan } from '../../lib/keys.ts';
import { baseUrlFromEnv } from '../../lib/target.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { assertReachable, InputError } from './cli.ts';

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
