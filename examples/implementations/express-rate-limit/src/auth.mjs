/**
 * Bearer authentication (spec: Authentication). `identifyCaller` runs first and only reads the header, so the
 * rate limiter can count a request against its key; `requireKey` runs after the limiter and refuses with 401,
 * which therefore carries the rate-limit headers like every other response.
 */
import { HttpError } from './errors.mjs';

const BEARER = /^bearer[ \t]+([^ \t]+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="petstore"';

export function identifyCaller(planOfKey) {
  return (req, _res, next) => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    const plan = token === undefined ? undefined : planOfKey.get(token);
    req.caller = plan === undefined ? { problem: problemWith(req.get('authorization'), token) } : { key: token, plan };
    next();
  };
}

export function requireKey(req, _res, next) {
  if (req.caller.problem) return next(new HttpError(401, 'unauthorized', req.caller.problem, { 'WWW-Authenticate': CHALLENGE }));
  next();
}

function problemWith(authorization, token) {
  if (!authorization) return 'the Authorization header is missing; send Authorization: Bearer <API_KEY>';
  if (token === undefined) return 'send the API key as a bearer token: Authorization: Bearer <API_KEY>';
  return 'the API key is not valid';
}
