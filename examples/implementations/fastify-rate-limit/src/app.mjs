/**
 * The service: @fastify/rate-limit counts every request against its key's per-minute quota (onRequest) and
 * sends the X-RateLimit-* headers; then the key is checked (401) and the per-day quota taken (preParsing),
 * before the body is parsed and validated. A 401 so carries the rate-limit headers like any other answer.
 */
import rateLimit from '@fastify/rate-limit';
import Ajv from 'ajv';
import Fastify from 'fastify';
import { planOf, quotaOf, rateLimitKey, unauthorizedReason } from './access.mjs';
import { addInt64Keyword, parseJsonBody } from './json.mjs';
import { petsRoutes } from './pets.mjs';

// Query strings are text and need coercing ("5" to 5); bodies are JSON and must not be coerced, or a
// number sent as name would be accepted as a string (Fastify's documented per-part validators).
const validators = {
  body: addInt64Keyword(new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false })),
  querystring: new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false }),
  params: new Ajv({ coerceTypes: true }),
};

export async function buildApp() {
  const app = Fastify({ logger: { level: 'warn' } });
  app.setValidatorCompiler(({ schema, httpPart }) => validators[httpPart].compile(schema));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  await app.register(rateLimit, {
    global: true,
    timeWindow: '1 minute',
    max: (request) => quotaOf(request).minute,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'rate_limited',
      message: `the per-minute rate limit of ${context.max} requests is used up; retry in ${context.after}`,
    }),
  });
  const takeFromDay = app.createRateLimit({ timeWindow: '1 day', max: (request) => quotaOf(request).day });

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!planOf(request)) {
      reply.header('www-authenticate', 'Bearer realm="petstore"');
      throw Object.assign(new Error(unauthorizedReason(request)), { statusCode: 401, code: 'unauthorized' });
    }
    const day = await takeFromDay(request);
    if (day.isExceeded) {
      reply.header('retry-after', day.ttlInSeconds);
      throw Object.assign(new Error(`the daily quota of ${day.max} requests is used up`), { statusCode: 429, code: 'rate_limited' });
    }
    return payload;
  });

  app.setErrorHandler((error, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      reply.log.error(error);
      return reply.code(500).send({ code: 'internal_error', message: 'the server failed to answer this request', status: 500 });
    }
    // Anything wrong with the body (not JSON, empty, another media type) is a 400, as the spec documents.
    const answered = status === 401 || status === 404 || status === 429 ? status : 400;
    const code = error.validation ? 'invalid_request' : answered === 400 ? 'invalid_body' : String(error.code);
    return reply.code(answered).send({ code, message: error.message, status: answered });
  });

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    reply.code(404).send({ code: 'not_found', message: `no operation answers ${request.method} ${request.url}`, status: 404 });
  });

  await app.register(petsRoutes, { prefix: '/v1' });
  return app;
}
