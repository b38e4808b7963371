/**
 * The order every request goes through: who calls (without refusing yet), the rate limits, the key check
 * (401), then the body and the operation. Every response, a 401 or a 404 included, so carries the
 * X-RateLimit-* headers the spec asks for on every response.
 */
import express from 'express';
import { identifyCaller, requireKey } from './auth.mjs';
import { HttpError, sendError } from './errors.mjs';
import { jsonBody, sendJson } from './json.mjs';
import { perDay, perMinute } from './limits.mjs';
import { petsRouter } from './pets.mjs';
import { keysFromEnvironment } from './plans.mjs';

export function createApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(identifyCaller(keysFromEnvironment()), perMinute, perDay, requireKey);

  const v1 = express.Router();
  v1.use(jsonBody);
  v1.use(petsRouter());
  v1.get('/store/orders', (_req, res) => {
    // The store-orders area is experimental (spec: What the service does); its shapes are not shown yet.
    res.set('X-API-Stability', 'experimental');
    sendJson(res, 200, []);
  });
  app.use('/v1', v1);

  app.use((req) => {
    throw new HttpError(404, 'not_found', `no operation answers ${req.method} ${req.path}`);
  });
  app.use((error, _req, res, _next) => {
    if (error instanceof HttpError) return sendError(res, error.status, error.code, error.message, error.headers);
    if (error.status >= 400 && error.status < 500) return sendError(res, error.status, 'bad_request', error.message);
    console.error(error);
    sendError(res, 500, 'internal_error', 'the server failed to answer this request');
  });
  return app;
}
