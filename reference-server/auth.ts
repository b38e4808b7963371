/**
 * Bearer authentication (spec: Authentication). The scheme name is matched case-insensitively
 * (RFC 9110 section 11.1), and no key is ever compared as text: the presented token is hashed (SHA-256),
 * the digest finds the candidate, and the two digests are compared with timingSafeEqual. Timing can at
 * most reveal something about the digest of the attacker's own guess, never the length or a prefix of
 * a real key.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { PLAN_IDS, type PlanId } from '../lib/plans.ts';
import type { KeysByPlan } from '../lib/keys.ts';

export interface Caller {
  plan: PlanId;
  key: string;
  /** The name the rate limiter counts this key under, made once rather than per request. */
  subject: string;
}

export type Authentication = { caller: Caller } | { problem: string };

/** The challenge every 401 carries (RFC 6750 section 3). */
export const BEARER_CHALLENGE = 'Bearer realm="petstore"';

const BEARER = /^bearer(?:[ \t]+(.*))?$/is;

interface KnownKey {
  digest: Buffer;
  caller: Caller;
}

/** SHA-256 as base64 text: the quickest form to get out of node:crypto and to look up in a Map. */
function digest(text: string): string {
  return hash('sha256', text, 'base64');
}

export class Authenticator {
  private readonly byDigest = new Map<string, KnownKey>();
  private readonly lastOnConnection = new WeakMap<object, { authorization: string; verdict: Authentication }>();

  constructor(keys: Readonly<KeysByPlan>) {
    for (const plan of PLAN_IDS) {
      for (const key of keys[plan]) {
        const text = digest(key);
        this.byDigest.set(text, { digest: Buffer.from(text, 'base64'), caller: { plan, key, subject: `key ${key}` } });
      }
    }
  }

  /** As authenticate, remembering the last header and verdict of `connection` (a socket) until it closes. */
  authenticateOn(connection: object, authorization: string | undefined): Authentication {
    if (authorization === undefined) return this.authenticate(authorization);
    const last = this.lastOnConnection.get(connection);
    if (last?.authorization === authorization) return last.verdict;
    const verdict = this.authenticate(authorization);
    this.lastOnConnection.set(connection, { authorization, verdict });
    return verdict;
  }

  /** Who sent the request, or why the Authorization header does not say; the problem never repeats the key. */
  authenticate(authorization: string | undefined): Authentication {
    if (authorization === undefined || authorization.trim() === '') return { problem: 'the Authorization header is missing; send Authorization: Bearer <API_KEY>' };
    const match = BEARER.exec(authorization.trim());
    if (!match) return { problem: 'the Authorization header must use the Bearer scheme: Authorization: Bearer <API_KEY>' };
    const token = (match[1] ?? '').trim();
    if (token === '') return { problem: 'the bearer token is empty; send Authorization: Bearer <API_KEY>' };
    const presented = digest(token);
    const candidate = this.byDigest.get(presented);
    if (!candidate || !timingSafeEqual(candidate.digest, Buffer.from(presented, 'base64'))) return { problem: 'the API key is not valid' };
    return { caller: candidate.caller };
  }
}
