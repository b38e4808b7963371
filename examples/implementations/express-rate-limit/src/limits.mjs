/**
 * Per-key rate limits with express-rate-limit: one limiter per window, both counting per API key (per client
 * address for requests without a valid key), with the plan's quota as the limit.
 *
 * The minute limiter sends the legacy X-RateLimit-* headers the spec names; the day limiter does not, so the
 * headers always describe the minute window, the one a client meets first. Both also send the IETF draft-8
 * RateLimit / RateLimit-Policy headers, where each window appears under its own name, and a Retry-After on
 * their 429.
 */
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { ANONYMOUS, PLANS } from './plans.mjs';

const quotaOf = (req) => (req.caller.plan ? PLANS[req.caller.plan] : ANONYMOUS);
const keyOf = (req) => (req.caller.key ? `key:${req.caller.key}` : `address:${ipKeyGenerator(req.ip)}`);
const tooManyRequests = (window) => (_req, res) => ({
  code: 'rate_limited',
  message: `the ${window} rate limit of this key is used up; retry after ${res.get('Retry-After')} seconds`,
  status: 429,
});

export const perMinute = rateLimit({
  windowMs: 60 * 1000,
  limit: (req) => quotaOf(req).perMinute,
  keyGenerator: keyOf,
  legacyHeaders: true,
  standardHeaders: 'draft-8',
  identifier: 'minute',
  message: tooManyRequests('per-minute'),
});

export const perDay = rateLimit({
  windowMs: 24 * 60 * 60 * 1000,
  limit: (req) => quotaOf(req).perDay,
  keyGenerator: keyOf,
  legacyHeaders: false,
  standardHeaders: 'draft-8',
  identifier: 'day',
  message: tooManyRequests('per-day'),
});
