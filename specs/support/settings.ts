/**
 * What the environment asks of a conformance run: which target, which keys, which tests. Read by
 * playwright.config.ts in the runner and by the fixtures in every worker, from the same variables.
 */
import { DEMO_KEYS, keysFromEnv, type KeysByPlan } from '../../lib/keys.ts';
import { agreedEnterpriseQuota, type Quota } from '../../lib/plans.ts';
import { baseUrlFromEnv } from '../../lib/target.ts';

export interface SuiteSettings {
  /** Base URL including /v1, no trailing slash. */
  baseUrl: string;
  /** True when the suite starts the reference server itself (PETSTORE_BASE_URL unset). */
  bundled: boolean;
  keys: KeysByPlan;
  /** PETSTORE_READ_ONLY=1: leave out every test that creates data. */
  readOnly: boolean;
  /** PETSTORE_QUOTA_TESTS=1 (always on for the bundled server): include tests that use up a daily quota. */
  quotaTests: boolean;
  /** PETSTORE_FRESH_KEYS=1 (always on for the bundled server): no key has been used today before this run. */
  freshKeys: boolean;
  /** PETSTORE_QUOTA_BUDGET_SECONDS: a daily-quota test whose estimated cost exceeds this is skipped. */
  quotaBudgetSeconds: number;
  /** PETSTORE_RUN_TIMEOUT_SECONDS: however the target behaves, the run stops then and gives its verdict. */
  runTimeoutSeconds: number;
  /** PETSTORE_ENTERPRISE_PER_MINUTE and _PER_DAY: the Enterprise quota agreed for the run's Enterprise keys. */
  enterpriseQuota: Quota | undefined;
}

/** Every minute window lasts one second and a day 24 minutes on the bundled server. */
export const BUNDLED_TIME_SCALE = 60;
export const DEFAULT_QUOTA_BUDGET_SECONDS = 60;
/**
 * The bundled certification is a whole one: every plan's day, Business's 100 one-second windows (about 165 s
 * by the test's own estimate) included. Against another target the budget stays the user's choice.
 */
export const BUNDLED_QUOTA_BUDGET_SECONDS = 300;
/** The bound on a whole run: every daily quota within its budget, and the rest of the suite, with room. */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 1_800;
export const BUNDLED_RUN_TIMEOUT_SECONDS = 600;

type Env = Readonly<Record<string, string | undefined>>;

/** `bundledPort` is the port the bundled server listens on; needed only when PETSTORE_BASE_URL is unset. */
export function settingsFromEnv(env: Env, bundledPort: number | undefined): SuiteSettings {
  const baseUrl = baseUrlFromEnv(env as NodeJS.ProcessEnv);
  const quotaBudgetSeconds = positiveNumber(env, 'PETSTORE_QUOTA_BUDGET_SECONDS', baseUrl === undefined ? BUNDLED_QUOTA_BUDGET_SECONDS : DEFAULT_QUOTA_BUDGET_SECONDS);
  const readOnly = flag(env, 'PETSTORE_READ_ONLY');
  const enterpriseQuota = agreedEnterpriseQuota(env);
  const runTimeoutSeconds = positiveNumber(env, 'PETSTORE_RUN_TIMEOUT_SECONDS', baseUrl === undefined ? BUNDLED_RUN_TIMEOUT_SECONDS : DEFAULT_RUN_TIMEOUT_SECONDS);
  if (baseUrl !== undefined) {
    return {
      baseUrl,
      bundled: false,
      keys: keysFromEnv(env as NodeJS.ProcessEnv),
      readOnly,
      quotaTests: flag(env, 'PETSTORE_QUOTA_TESTS'),
      freshKeys: flag(env, 'PETSTORE_FRESH_KEYS'),
      quotaBudgetSeconds,
      runTimeoutSeconds,
      enterpriseQuota,
    };
  }
  if (bundledPort === undefined) throw new Error('PETSTORE_BASE_URL is unset and no bundled server port was chosen');
  return {
    baseUrl: `http://127.0.0.1:${bundledPort}/v1`,
    bundled: true,
    keys: structuredClone(DEMO_KEYS) as KeysByPlan,
    readOnly,
    quotaTests: true,
    freshKeys: true,
    quotaBudgetSeconds,
    runTimeoutSeconds,
    enterpriseQuota,
  };
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['', '0', 'false', 'no', 'off']);

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  throw new Error(`${name} must be 1 or 0, got "${env[name]}"`);
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return value;
}
