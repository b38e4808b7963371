/**
 * The suite already writes keys as variable names; the report redacts again, because a key that slipped into
 * an error message or a server's echo of a request must still never reach a file a reviewer shares.
 */
import { keysFromEnv, type KeysByPlan } from '../../lib/keys.ts';
import { withDemoKeys } from '../../lib/capture/credentials.ts';
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
  return new Redactor(withDemoKeys(configured));
}

/** A copy of a JSON-like value with every string redacted, as every part redacts (lib/redact.ts). */
export function redactDeep<T>(value: T, redactor: Redactor = reportRedactor()): T {
  return redactor.deep(value);
}
