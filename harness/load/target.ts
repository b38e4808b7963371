/**
 * Where the load goes: the target named by PETSTORE_BASE_URL with the keys of PETSTORE_API_KEY_<PLAN>, or,
 * when PETSTORE_BASE_URL is unset, a reference server this run starts with scaled time and the demo keys.
 */
import net from 'node:net';
import { DEMO_KEYS, keysFromEnv, keyVariable, type KeysByPlan } from '../../lib/keys.ts';
import { plans } from '../../lib/plans.ts';
import { baseUrlFromEnv } from '../../lib/target.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { describeDuration } from './duration.ts';
import { InputError } from './input-error.ts';
import type { Scenario, ScenarioKey } from './scenario.ts';
import type { SettingsOfPart } from '../../lib/docs/setting-docs.ts';

/** The bundled server's time scale when neither flag, environment nor scenario gives one: a minute lasts 1 s. */
export const DEFAULT_BUNDLED_TIME_SCALE = 60;
const CONNECT_TIMEOUT_MS = 5_000;

export interface ResolvedTarget {
  baseUrl: string;
  /** A reference server this run started (and stops): its keys were unused when the run began. */
  bundled: boolean;
  /** How many times faster than real time the target's windows run, as far as this run knows. */
  timeScale: number;
  timeScaleSource: string;
  keys: KeysByPlan;
  /** One line for people, with no key in it. */
  description: string;
  stop(): Promise<void>;
}

export interface TargetRequest {
  scenario: Scenario;
  /** --time-scale */
  timeScale?: number;
  env?: NodeJS.ProcessEnv;
  /** What named the base URL, for the run's first line: PETSTORE_BASE_URL unless the command line did. */
  baseUrlSource?: string;
}

/**
 * PETSTORE_BASE_URL and PETSTORE_TIME_SCALE as given (undefined when unset): a run and an export read them
 * alike, and a bad value of either is bad input, one line naming the variable.
 */
export function targetSettingsFromEnv(env: NodeJS.ProcessEnv): { baseUrl: string | undefined; timeScale: number | undefined } {
  let baseUrl: string | undefined;
  try {
    baseUrl = baseUrlFromEnv(env);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  return { baseUrl, timeScale: parseScale(env.PETSTORE_TIME_SCALE) };
}

export async function resolveTarget({ scenario, timeScale: flagScale, env = process.env, baseUrlSource = 'PETSTORE_BASE_URL' }: TargetRequest): Promise<ResolvedTarget> {
  const { baseUrl, timeScale: envScale } = targetSettingsFromEnv(env);
  if (baseUrl !== undefined) {
    const keys = readKeys(env, undefined);
    requireKeys(scenario.keys, keys, false);
    await checkReachable(baseUrl);
    const [timeScale, timeScaleSource] =
      flagScale !== undefined ? [flagScale, '--time-scale'] : envScale !== undefined ? [envScale, 'PETSTORE_TIME_SCALE'] : [1, 'assumed: real time'];
    return {
      baseUrl,
      bundled: false,
      timeScale,
      timeScaleSource,
      keys,
      description: `${baseUrl} (${baseUrlSource}), keys from ${[...new Set(scenario.keys.map((key) => keyVariable(key.plan)))].join(', ')}`,
      stop: async () => {},
    };
  }

  const keys = readKeys(env, DEMO_KEYS);
  requireKeys(scenario.keys, keys, true);
  const [timeScale, timeScaleSource] =
    flagScale !== undefined
      ? [flagScale, '--time-scale']
      : envScale !== undefined
        ? [envScale, 'PETSTORE_TIME_SCALE']
        : scenario.timeScale !== undefined
          ? [scenario.timeScale, scenario.source]
          : [DEFAULT_BUNDLED_TIME_SCALE, 'default'];
  let server;
  try {
    server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: String(timeScale), PETSTORE_LOG: 'off' } });
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const usesDemoKeys = scenario.keys.some((key) => env[keyVariable(key.plan)] === undefined);
  return {
    baseUrl: server.baseUrl,
    bundled: true,
    timeScale,
    timeScaleSource,
    keys,
    description: `the bundled reference server at ${server.baseUrl}, time scale ${timeScale} (a minute lasts ${describeDuration(60_000 / timeScale)}, a day ${describeDuration(86_400_000 / timeScale)}), ${usesDemoKeys ? 'demo keys' : 'keys from PETSTORE_API_KEY_<PLAN>'}`,
    stop: () => server.stop(),
  };
}

function parseScale(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new InputError(`PETSTORE_TIME_SCALE must be a positive number such as 1 or 60, got "${raw}"`);
  return value;
}

function readKeys(env: NodeJS.ProcessEnv, fallback: KeysByPlan | undefined): KeysByPlan {
  try {
    return keysFromEnv(env, fallback);
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
}

function requireKeys(wanted: readonly ScenarioKey[], keys: KeysByPlan, bundled: boolean): void {
  for (const { plan, keyNumber } of wanted) {
    const available = keys[plan].length;
    if (available >= keyNumber) continue;
    const variable = keyVariable(plan);
    if (available === 0) throw new InputError(`no key for the ${plans[plan].name} plan: set ${variable}${bundled ? '' : ' (comma-separated keys of that plan on the target)'}`);
    throw new InputError(`${plans[plan].name} key #${keyNumber} is wanted but ${variable} holds ${available}: add keys to ${variable} (comma-separated) or use fewer ${plans[plan].name} keys`);
  }
}

/** Fails with one line when nothing listens at the target's address. */
export async function checkReachable(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port });
    const fail = (reason: string): void => {
      socket.destroy();
      reject(new InputError(`cannot reach ${baseUrl}: ${reason}; is the server running, and is PETSTORE_BASE_URL right?`));
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => fail(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ECONNREFUSED' ? 'connection refused' : error.code === 'ENOTFOUND' ? `unknown host ${host}` : error.message));
  });
}

/** What docs/reference/settings.md says of the load script's variables (npm run docs:reference). */
export const LOAD_SETTINGS: SettingsOfPart = {
  part: 'The quota load script (`npm run load`, `petstore-conformance load`)',
  read: (env) => ({ baseUrl: baseUrlFromEnv(env as NodeJS.ProcessEnv), keys: keysFromEnv(env as NodeJS.ProcessEnv), timeScale: parseScale(env.PETSTORE_TIME_SCALE) }),
  settings: [
    {
      name: 'PETSTORE_BASE_URL',
      default: `unset: a bundled reference server started for the run, time scale ${DEFAULT_BUNDLED_TIME_SCALE} (a minute lasts 1 s), demo keys`,
      check: 'an http:// or https:// URL without query or fragment',
      meaning: 'The target to load, `/v1` included.',
      refused: 'not a url',
    },
    {
      name: 'PETSTORE_API_KEY_<PLAN>',
      default: 'the demo keys against the bundled server; none against a target (a scenario that needs one stops, naming the variable)',
      check: 'comma-separated keys of visible ASCII, no spaces',
      meaning: "The keys of each plan; a scenario's `free #2` is the second Free key.",
      refused: 'key with space',
    },
    {
      name: 'PETSTORE_TIME_SCALE',
      default: `the scenario's \`timeScale\`, else ${DEFAULT_BUNDLED_TIME_SCALE} for the bundled server and 1 for a target`,
      check: 'a positive number',
      meaning: "The target's time scale: the bundled server runs at it, and `1.1x` rates are scaled by it (`--time-scale` wins).",
      refused: '0',
    },
    {
      name: 'PETSTORE_LOCUST',
      default: 'unset: `locust` on the PATH, /usr/bin/locust, or the copy fetched with pip on first use into the user cache',
      check: 'the path of an existing file',
      meaning: 'With `--engine locust`: the Locust executable to run.',
    },
  ],
};
