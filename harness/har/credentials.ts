/**
 * How a credential is written in a capture. A key is never written: the recorder writes a placeholder that
 * names the key's plan, and the replayer puts a key of that plan for the target in its place. Recordings
 * can therefore be committed and shared, and replayed against a server whose keys are different.
 *
 *   Bearer $PETSTORE_API_KEY_FREE      the first Free key seen in the recording
 *   Bearer $PETSTORE_API_KEY_FREE#2    a second, different Free key (rate limits are per key, so keys stay apart)
 *   Bearer $PETSTORE_INVALID_KEY       a credential the upstream refused (401): replay sends an invalid key again
 *   Bearer $PETSTORE_API_KEY_UNKNOWN_PLAN   a key the upstream accepted but whose plan the recorder could not tell
 */
import { DEMO_KEYS, type KeysByPlan } from '../../lib/keys.ts';
import { placeholderFor } from '../../lib/redact.ts';
import { PLAN_IDS, type PlanId } from '../../lib/plans.ts';

export const INVALID_KEY_PLACEHOLDER = '$PETSTORE_INVALID_KEY';
export const UNKNOWN_PLAN_PLACEHOLDER = '$PETSTORE_API_KEY_UNKNOWN_PLAN';

export type CredentialRef = { kind: 'plan'; plan: PlanId; ordinal: number } | { kind: 'invalid' } | { kind: 'unknown-plan' };

export function planPlaceholder(plan: PlanId, ordinal: number): string {
  return ordinal <= 1 ? placeholderFor(plan) : `${placeholderFor(plan)}#${ordinal}`;
}

const PLAN_PLACEHOLDER = new RegExp(`^\\$PETSTORE_API_KEY_(${PLAN_IDS.map((plan) => plan.toUpperCase()).join('|')})(?:#([1-9]\\d{0,3}))?$`);

/** What a token of a recorded Authorization header stands for; undefined when it is not a placeholder. */
export function parsePlaceholder(token: string): CredentialRef | undefined {
  if (token === INVALID_KEY_PLACEHOLDER) return { kind: 'invalid' };
  if (token === UNKNOWN_PLAN_PLACEHOLDER) return { kind: 'unknown-plan' };
  const match = PLAN_PLACEHOLDER.exec(token);
  if (!match?.[1]) return undefined;
  return { kind: 'plan', plan: match[1].toLowerCase() as PlanId, ordinal: Number(match[2] ?? '1') };
}

/** The scheme and the token of an Authorization header value ("Bearer abc" -> ["Bearer", "abc"]). */
export function splitAuthorization(value: string): { scheme: string; token: string } {
  const match = /^\s*(\S+)\s+(.*?)\s*$/.exec(value);
  return match ? { scheme: match[1] ?? '', token: match[2] ?? '' } : { scheme: '', token: value.trim() };
}

/** The keys given plus the public demo keys: all a recording or a report must never show. */
export function withDemoKeys(keys: Readonly<KeysByPlan>): KeysByPlan {
  const all = {} as KeysByPlan;
  for (const plan of PLAN_IDS) all[plan] = [...new Set([...keys[plan], ...DEMO_KEYS[plan]])];
  return all;
}
