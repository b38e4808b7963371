import { PLAN_IDS, type PlanId } from './plans.ts';

export type KeysByPlan = Record<PlanId, string[]>;

export function keyVariable(plan: PlanId): string {
  return `PETSTORE_API_KEY_${plan.toUpperCase()}`;
}

/**
 * Keys the reference server accepts when PETSTORE_API_KEY_<PLAN> is unset. They are public (in the
 * README) and worth nothing outside a local run, but they are still redacted like any other key.
 */
export const DEMO_KEYS: Readonly<KeysByPlan> = {
  free: ['demo-free-1', 'demo-free-2', 'demo-free-3'],
  pro: ['demo-pro-1', 'demo-pro-2', 'demo-pro-3'],
  business: ['demo-business-1', 'demo-business-2', 'demo-business-3'],
  enterprise: ['demo-enterprise-1', 'demo-enterprise-2', 'demo-enterprise-3'],
};

/** PETSTORE_API_KEY_<PLAN> as lists of keys (comma-separated, blanks dropped); `fallback` where unset. */
export function keysFromEnv(env: NodeJS.ProcessEnv, fallback?: Readonly<KeysByPlan>): KeysByPlan {
  const keys = {} as KeysByPlan;
  for (const plan of PLAN_IDS) {
    const raw = env[keyVariable(plan)];
    const listed = raw === undefined ? undefined : splitKeys(raw, keyVariable(plan));
    keys[plan] = listed ?? [...(fallback?.[plan] ?? [])];
  }
  return keys;
}

function splitKeys(raw: string, variable: string): string[] {
  const keys = raw.split(',').map((key) => key.trim()).filter((key) => key.length > 0);
  for (const key of keys) {
    if (!/^[\x21-\x7e]+$/.test(key)) throw new Error(`${variable}: a key may hold only visible ASCII characters and no spaces`);
  }
  return keys;
}

/** The plan a key belongs to, if any. */
export function planOfKey(keys: Readonly<KeysByPlan>, key: string): PlanId | undefined {
  return PLAN_IDS.find((plan) => keys[plan].includes(key));
}
