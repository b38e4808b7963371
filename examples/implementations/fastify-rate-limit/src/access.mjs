/**
 * Plans, keys and the bearer token (spec: Authentication; Limits). Quotas per plan come from the spec's table;
 * Enterprise quotas are agreed individually, and ours are stated here and in the README.
 */
import { normalizeIP } from '@fastify/rate-limit';

export const QUOTAS = {
  free: { minute: 60, day: 1_000 },
  pro: { minute: 300, day: 10_000 },
  business: { minute: 1_000, day: 100_000 },
  enterprise: { minute: 5_000, day: 500_000 },
  // Callers without a valid key, counted per address: enough for a shared address, little for key guessing.
  anonymous: { minute: 600, day: 864_000 },
};

/** API key to plan: the keys in PETSTORE_API_KEY_<PLAN>, else the three documented demo keys of each plan. */
const planByKey = new Map(
  ['free', 'pro', 'business', 'enterprise'].flatMap((plan) => {
    const configured = (process.env[`PETSTORE_API_KEY_${plan.toUpperCase()}`] ?? '').split(',').map((key) => key.trim()).filter(Boolean);
    const keys = configured.length > 0 ? configured : ['1', '2', '3'].map((n) => `demo-${plan}-${n}`);
    return keys.map((key) => [key, plan]);
  }),
);

/** The token of an `Authorization: Bearer <token>` header; the scheme name is case-insensitive (RFC 9110). */
export function bearerToken(request) {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The plan of the request's key, or undefined without a valid one. */
export function planOf(request) {
  return planByKey.get(bearerToken(request));
}

/** What the rate limiter counts a request under: its key, or its address when it has no valid key. */
export function rateLimitKey(request) {
  return planOf(request) ? `key ${bearerToken(request)}` : `address ${normalizeIP(request.ip)}`;
}

export function quotaOf(request) {
  return QUOTAS[planOf(request) ?? 'anonymous'];
}

export function unauthorizedReason(request) {
  if (request.headers.authorization === undefined) return 'the Authorization header is missing; send Authorization: Bearer <API_KEY>';
  if (bearerToken(request) === undefined) return 'send the API key as a bearer token: Authorization: Bearer <API_KEY>';
  return 'the API key is not valid';
}
