/**
 * How a credential is written in a capture. A key is never written: the recorder writes a placeholder that
 * names the key's plan, and the replayer puts a key of that plan for the target in its place. Recordings
 * can therefore be committed and shared, and replayed against a server whose keys are different.
 *
 *   Bearer $PETSTORE_API_KEY_FREE      the first Free key seen in the recording
 *   Bearer $PETSTORE_API_KEY_FREE#2    a second, different Free key (rate limits are per key, so keys stay apart)
 *   Bearer $PETSTORE_INVALID_KEY       a credential the upstream refused (401): replay sends an invalid key again
 *   Bearer $PETSTORE_API_KEY_UNKNOWN_PLAN   a key the upstream accepted but whose plan the recorder could not tell
 *   Bearer $PETSTORE_API_KEY_UNKNOWN_PLAN#2 a second such key: keys of unknown plan stay apart too
 */
import { DEMO_KEYS, type KeysByPlan } from '../keys.ts';
import { placeholderFor } from '../redact.ts';
import { PLAN_IDS, type PlanId } from '../plans.ts';

export const INVALID_KEY_PLACEHOLDER = '$PETSTORE_INVALID_KEY';
export const UNKNOWN_PLAN_PLACEHOLDER = '$PETSTORE_API_KEY_UNKNOWN_PLAN';

export type CredentialRef = { kind: 'plan'; plan: PlanId; ordinal: number } | { kind: 'invalid' } | { kind: 'unknown-plan'; ordinal: number };

export function planPlaceholder(plan: PlanId, ordinal: number): string {
  return ordinal <= 1 ? placeholderFor(plan) : `${placeholderFor(plan)}#${ordinal}`;
}

export function unknownPlanPlaceholder(ordinal: number): string {
  return ordinal <= 1 ? UNKNOWN_PLAN_PLACEHOLDER : `${UNKNOWN_PLAN_PLACEHOLDER}#${ordinal}`;
}

const PLAN_PLACEHOLDER = new RegExp(`^\\$PETSTORE_API_KEY_(${PLAN_IDS.map((plan) => plan.toUpperCase()).join('|')})(?:#([1-9]\\d{0,3}))?$`);

const UNKNOWN_PLAN = /^\$PETSTORE_API_KEY_UNKNOWN_PLAN(?:#([1-9]\d{0,3}))?$/;

/** What a token of a recorded Authorization header stands for; undefined when it is not a placeholder. */
export function parsePlaceholder(token: string): CredentialRef | undefined {
  if (token === INVALID_KEY_PLACEHOLDER) return { kind: 'invalid' };
  const unknownPlan = UNKNOWN_PLAN.exec(token);
  if (unknownPlan) return { kind: 'unknown-plan', ordinal: Number(unknownPlan[1] ?? '1') };
  const match = PLAN_PLACEHOLDER.exec(token);
  if (!match?.[1]) return undefined;
  return { kind: 'plan', plan: match[1].toLowerCase() as PlanId, ordinal: Number(match[2] ?? '1') };
}

/** The scheme and the token of an Authorization header value ("Bearer abc" -> ["Bearer", "abc"]). */
export function splitAuthorization(value: string): { scheme: string; token: string } {
  const match = /^\s*(\S+)\s+(.*?)\s*$/.exec(value);
  return match ? { scheme: match[1] ?? '', token: match[2] ?? '' } : { scheme: '', token: value.trim() };
}

/**
 * How an Authorization header presents a key. Only `Bearer <token>` carries one as the spec says (the scheme
 * matched case-insensitively and one space or more before the token, RFC 7235 section 2.1); anything else is a
 * request without a valid key: another scheme ("Token", "Basic"), a bare token, an empty bearer token, or a
 * bearer header of another shape.
 */
export type PresentedCredential =
  | { form: 'bearer'; scheme: string; token: string }
  | { form: 'empty-bearer' }
  | { form: 'other-scheme'; scheme: string; token: string }
  | { form: 'bare'; token: string }
  | { form: 'malformed' };

const BEARER_FORM = /^([Bb][Ee][Aa][Rr][Ee][Rr]) +(\S+)$/;
const EMPTY_BEARER = /^bearer$/i;
const OTHER_SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S.*)$/;

export function presentedCredential(value: string): PresentedCredential {
  // A field value's surrounding whitespace is not part of it (RFC 9110 section 5.5).
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  const bearer = BEARER_FORM.exec(trimmed);
  if (bearer) return { form: 'bearer', scheme: bearer[1] ?? 'Bearer', token: bearer[2] ?? '' };
  if (EMPTY_BEARER.test(trimmed)) return { form: 'empty-bearer' };
  const other = OTHER_SCHEME.exec(trimmed);
  if (other && !/^bearer$/i.test(other[1] ?? '')) return { form: 'other-scheme', scheme: other[1] ?? '', token: other[2] ?? '' };
  if (/^\S+$/.test(trimmed)) return { form: 'bare', token: trimmed };
  return { form: 'malformed' };
}

/** The keys given plus the public demo keys: all a recording or a report must never show. */
export function withDemoKeys(keys: Readonly<KeysByPlan>): KeysByPlan {
  const all = {} as KeysByPlan;
  for (const plan of PLAN_IDS) all[plan] = [...new Set([...keys[plan], ...DEMO_KEYS[plan]])];
  return all;
}
