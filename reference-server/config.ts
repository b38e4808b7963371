/**
 * The server's configuration, read from the environment once at start. Every problem is reported as one
 * line naming the variable and what it should hold, so a typo never surfaces later as a strange answer.
 */
import { DEMO_KEYS, keysFromEnv, keyVariable, type KeysByPlan } from '../lib/keys.ts';
import { PLAN_IDS, plans, type PlanId, type Quota } from '../lib/plans.ts';
import type { SettingsOfPart } from '../lib/docs/setting-docs.ts';

export type LogMode = 'json' | 'off';

export interface ServerConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  keys: KeysByPlan;
  quotas: Record<PlanId, Quota>;
  /** Requests per (scaled) minute a client address may send without a valid key before 401 turns into 429. */
  anonymousPerMinute: number;
  /** N makes every rate-limit window N times shorter in real time; Reset and Retry-After stay in real time. */
  timeScale: number;
  /**
   * N runs the server's clock N times faster than real time, equal to it at `clockAnchorMs`: windows pass N
   * times faster and Reset and Retry-After speak of that clock, so a client that knows the rate reads them
   * exactly (whole seconds of the fast clock). Exclusive with timeScale.
   */
  clockRate: number;
  /** Milliseconds since the epoch; undefined: when the server starts. */
  clockAnchorMs: number | undefined;
  seedPets: number;
  log: LogMode;
  /** Request bodies above this many bytes are answered 413. */
  maxBodyBytes: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Generous enough that the auth tests of a conformance run (a few dozen requests) are never throttled. */
export const DEFAULT_ANONYMOUS_PER_MINUTE = 600;
export const DEFAULT_SEED_PETS = 6;
export const MAX_SEED_PETS = 10_000_000;
export const MAX_BODY_BYTES = 64 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

export function configFromEnv(env: Env = process.env): ServerConfig {
  return {
    host: setting(env, 'HOST') ?? '127.0.0.1',
    port: wholeNumber(env, 'PORT', 8080, 0, 65_535),
    keys: keys(env),
    quotas: quotas(env),
    anonymousPerMinute: wholeNumber(env, 'PETSTORE_ANONYMOUS_PER_MINUTE', DEFAULT_ANONYMOUS_PER_MINUTE, 1, Number.MAX_SAFE_INTEGER),
    ...clock(env),
    seedPets: wholeNumber(env, 'PETSTORE_SEED_PETS', DEFAULT_SEED_PETS, 0, MAX_SEED_PETS),
    log: logMode(env),
    maxBodyBytes: MAX_BODY_BYTES,
  };
}

function clock(env: Env): Pick<ServerConfig, 'timeScale' | 'clockRate' | 'clockAnchorMs'> {
  const timeScale = positiveNumber(env, 'PETSTORE_TIME_SCALE', 1);
  const clockRate = positiveNumber(env, 'PETSTORE_CLOCK_RATE', 1);
  if (timeScale !== 1 && clockRate !== 1) {
    throw new ConfigError('PETSTORE_TIME_SCALE and PETSTORE_CLOCK_RATE both speed up time; set one of them');
  }
  const anchor = setting(env, 'PETSTORE_CLOCK_ANCHOR_MS');
  return { timeScale, clockRate, clockAnchorMs: anchor === undefined ? undefined : wholeNumber(env, 'PETSTORE_CLOCK_ANCHOR_MS', 0, 0, Number.MAX_SAFE_INTEGER) };
}

/** An unset or blank variable means "use the default". */
function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = setting(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = setting(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number such as 1 or 60, got "${raw}"`);
  return value;
}

function logMode(env: Env): LogMode {
  const raw = setting(env, 'PETSTORE_LOG')?.toLowerCase() ?? 'json';
  if (raw !== 'json' && raw !== 'off') throw new ConfigError(`PETSTORE_LOG must be json or off, got "${raw}"`);
  return raw;
}

function keys(env: Env): KeysByPlan {
  let byPlan: KeysByPlan;
  try {
    byPlan = keysFromEnv(env as NodeJS.ProcessEnv, DEMO_KEYS);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const planOf = new Map<string, PlanId>();
  for (const plan of PLAN_IDS) {
    for (const key of byPlan[plan]) {
      const other = planOf.get(key);
      if (other && other !== plan) throw new ConfigError(`a key is listed in both ${keyVariable(other)} and ${keyVariable(plan)}; a key has one plan`);
      planOf.set(key, plan);
    }
  }
  return byPlan;
}

function quotas(env: Env): Record<PlanId, Quota> {
  const result = {} as Record<PlanId, Quota>;
  for (const plan of PLAN_IDS) result[plan] = plans[plan].referenceDefault;
  const enterprise = plans.enterprise.referenceDefault;
  result.enterprise = {
    perMinute: wholeNumber(env, 'PETSTORE_ENTERPRISE_PER_MINUTE', enterprise.perMinute, 1, Number.MAX_SAFE_INTEGER),
    perDay: wholeNumber(env, 'PETSTORE_ENTERPRISE_PER_DAY', enterprise.perDay, 1, Number.MAX_SAFE_INTEGER),
  };
  return result;
}

/** What docs/reference/settings.md says of the server's variables (npm run docs:reference). */
export const SERVER_SETTINGS: SettingsOfPart = {
  part: 'The reference server (`npm run serve`, `petstore-conformance serve`, and wherever a tool starts it)',
  read: (env) => configFromEnv(env),
  settings: [
    { name: 'HOST', default: '127.0.0.1', check: 'an address', meaning: 'The address to listen on.' },
    { name: 'PORT', default: '8080', check: 'a whole number from 0 to 65535', meaning: 'The port; 0 picks a free one (the printed URL says which).', refused: '70000' },
    {
      name: 'PETSTORE_API_KEY_<PLAN>',
      default: 'the demo keys (`demo-free-1` … `demo-enterprise-3`)',
      check: 'comma-separated keys of visible ASCII, no spaces; a key belongs to one plan',
      meaning: 'The keys each plan accepts. Set but blank, the plan has no keys.',
      refused: 'key with space',
    },
    {
      name: 'PETSTORE_TIME_SCALE',
      default: '1',
      check: 'a positive number; exclusive with PETSTORE_CLOCK_RATE',
      meaning: 'Makes every rate-limit window (and the ban) N times shorter in real time: at 60 a "minute" lasts one second. Headers still carry real Unix seconds.',
      refused: '0',
    },
    {
      name: 'PETSTORE_CLOCK_RATE',
      default: '1',
      check: 'a positive number; exclusive with PETSTORE_TIME_SCALE',
      meaning: "Runs the server's clock N times faster instead: windows pass N times faster and Reset and Retry-After speak of that clock, so a client told N reads them exactly. The bundled certification's rate is the suite's PETSTORE_TARGET_CLOCK_RATE default.",
      refused: 'fast',
    },
    {
      name: 'PETSTORE_CLOCK_ANCHOR_MS',
      default: 'the moment the server starts',
      check: 'a whole number of milliseconds since the epoch',
      meaning: 'With PETSTORE_CLOCK_RATE: the instant at which the fast clock equals the wall clock (the suite: PETSTORE_TARGET_CLOCK_ANCHOR_MS).',
      refused: 'soon',
    },
    {
      name: 'PETSTORE_ENTERPRISE_PER_MINUTE, PETSTORE_ENTERPRISE_PER_DAY',
      default: `${plans.enterprise.referenceDefault.perMinute} and ${plans.enterprise.referenceDefault.perDay} (\`referenceDefault\` in fixtures/plans.yaml)`,
      check: 'whole numbers of 1 or more',
      meaning: 'The Enterprise quota ("custom" in the spec). The suite reads the same two variables as the agreed quota to certify.',
      refused: 'lots',
    },
    {
      name: 'PETSTORE_SEED_PETS',
      default: String(DEFAULT_SEED_PETS),
      check: `a whole number from 0 to ${MAX_SEED_PETS}`,
      meaning: 'Pets in the store at start (demo names, statuses cycling available/pending/sold).',
      refused: '-1',
    },
    {
      name: 'PETSTORE_LOG',
      default: 'json',
      check: 'json or off',
      meaning: '`json`: one line per request on stdout (time, method, path without query, status, plan, duration; never a key); `off`: silent.',
      refused: 'verbose',
    },
    {
      name: 'PETSTORE_ANONYMOUS_PER_MINUTE',
      default: String(DEFAULT_ANONYMOUS_PER_MINUTE),
      check: 'a whole number of 1 or more',
      meaning: 'Requests per (scaled) minute a client address may send without a valid key before 401 turns into 429.',
      refused: '0',
    },
  ],
};
