/**
 * Who may call, and how often. The quotas are the spec's "Rate limits by plan" table; Enterprise quotas are
 * "agreed individually", and ours are stated here (and in the README) so a certification run can hold us to them.
 */
export const PLANS = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 5_000, perDay: 500_000 },
};

/**
 * Requests without a valid key are limited per client address. The limit is generous so that a shared
 * office address is not locked out by one misconfigured client, and low enough to slow down key guessing.
 */
export const ANONYMOUS = { perMinute: 600, perDay: 600 * 1_440 };

/** Keys per plan: PETSTORE_API_KEY_<PLAN> (comma-separated) when set, else the documented demo keys. */
export function keysFromEnvironment(env = process.env) {
  const planOfKey = new Map();
  for (const plan of Object.keys(PLANS)) {
    const listed = env[`PETSTORE_API_KEY_${plan.toUpperCase()}`];
    const keys = listed ? listed.split(',').map((key) => key.trim()).filter(Boolean) : [1, 2, 3].map((n) => `demo-${plan}-${n}`);
    for (const key of keys) planOfKey.set(key, plan);
  }
  return planOfKey;
}
