/**
 * Bearer authentication (spec: Authentication). The scheme name is matched case-insensitively
 * (RFC 9110 section 11.1) and the key is compared in constant time: both sides are hashed to the same
 * length and compared with timingSafeEqual against every known key, so neither the length nor the
 * first differing byte of a guess shows in the response time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';
import type { KeysByPlan } from '../lib/keys.ts';

export interface Caller {
  plan: PlanId;
  key: string;
}

export type Authentication = { caller: Caller } | { problem: string };

/** The challenge every 401 carries (RFC 6750 section 3). */
export const BEARER_CHALLENGE = 'Bearer realm="petstore"';

const BEARER = /^bearer(?:[ \t]+(.*))?$/is;

interface KnownKey {
  digest: Buffer;
  caller: Caller;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export class Authenticator {
  private readonly known: KnownKey[];

  constructor(keys: Readonly<KeysByPlan>) {
    this.known = PLAN_IDS.flatMap((plan) => keys[plan].map((key) => ({ digest: digest(key), caller: { plan, key } })));
  }

  /** Who sent the request, or why the Authorization header does not say; the problem never repeats the key. */
  authenticate(authorization: string | undefined): Authentication {
    if (authorization === undefined || authorization.trim() === '') return { problem: 'the Authorization header is missing; send Authorization: Bearer <API_KEY>' };
    const match = BEARER.exec(authorization.trim());
    if (!match) return { problem: 'the Authorization header must use the Bearer scheme: Authorization: Bearer <API_KEY>' };
    const token = (match[1] ?? '').trim();
    if (token === '') return { problem: 'the bearer token is empty; send Authorization: Bearer <API_KEY>' };
    const presented = digest(token);
    let found: Caller | undefined;
    // No early exit: every request does the same work whichever key (if any) it matches.
    for (const candidate of this.known) {
      if (timingSafeEqual(candidate.digest, presented) && !found) found = candidate.caller;
    }
    return found ? { caller: found } : { problem: 'the API key is not valid' };
  }
}
