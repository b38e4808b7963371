/**
 * The suite already writes keys as variable names; the report redacts again, because a key that slipped into
 * an error message or a server's echo of a request must still never reach a file a reviewer shares.
 */
import { DEMO_KEYS, keysFromEnv, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS } from '../../lib/plans.ts';
import { Redactor } from '../../lib/redact.ts';

/** A redactor for every key this run may have used: the configured ones and the demo keys. */
export function reportRedactor(env: NodeJS.ProcessEnv = process.env): Redactor {
  let configured: KeysByPlan;
  try {
    configured = keysFromEnv(env);
  } catch {
    // A malformed key variable already failed the run with a clear message; the demo keys are still redacted.
    configured = keysFromEnv({});
  }
  const keys = {} as KeysByPlan;
  for (const plan of PLAN_IDS) keys[plan] = [...new Set([...configured[plan], ...DEMO_KEYS[plan]])];
  return new Redactor(keys);
}

/** A copy of a JSON-like value with every string redacted. */
export function redactDeep<T>(value: T, redactor: Redactor = reportRedactor()): T {
  return walk(value, redactor) as T;
}

function walk(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, redactor));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redactor.text(key), walk(inner, redactor)]));
  }
  return value;
}
