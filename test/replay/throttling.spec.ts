/**
 * Replay as a good client: a 429 the recording did not have is waited out per Retry-After and the request
 * sent again, and counted as throttling, not as a difference; a recorded 429 the target does not repeat is
 * reported with the throttling figures, not as a difference either.
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { startFaultProxy, type ExchangeTransform } from '../support/fault-proxy.ts';
import { DEMO_KEY_ENV, cleanEnv, explain, readSummary, runCommand, SAMPLE_HAR, tempDir } from './support.ts';


async function replayThrough(transform: ExchangeTransform) {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '60' } });
  const proxy = await startFaultProxy(server.baseUrl, transform);
  try {
    const reports = tempDir('throttling');
    const started = Date.now();
    const result = await runCommand('replay', [SAMPLE_HAR, '--speed', '0', '--output', reports], cleanEnv({ ...DEMO_KEY_ENV, PETSTORE_BASE_URL: proxy.baseUrl }));
    return { result, summary: readSummary(reports), elapsedMs: Date.now() - started };
  } finally {
    await proxy.close();
    await server.stop();
  }
}

test('an unexpected 429 is waited out per Retry-After, retried, and reported apart from differences', async () => {
  const attempts: number[] = [];
  let refused = false;
  const { result, summary } = await replayThrough({
    request: (request) => {
      if (request.path !== '/v1/store/orders') return request;
      attempts.push(Date.now());
      if (refused) return request;
      refused = true;
      const reset = String(Math.ceil(Date.now() / 1000) + 1);
      return {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '1', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        body: '{"code":"rate_limited","message":"slow down","status":429}',
      };
    },
  });
  expect(result.code, explain(result)).toBe(0);
  expect(attempts).toHaveLength(2);
  expect((attempts[1] ?? 0) - (attempts[0] ?? 0)).toBeGreaterThanOrEqual(1_000);
  expect(summary).toMatchObject({ differences: { exchanges: 0 }, violations: { exchanges: 0 }, throttled: { exchanges: 1, retries: 1, gaveUp: 0 } });
  expect(summary.findings.map((f) => [f.path, f.verdict])).toEqual([['/store/orders', 'identical']]);
});

test('a recorded 429 the target does not repeat is reported as such, not as a difference', async () => {
  // The Free key is lent an Enterprise quota behind the proxy, so the target never refuses it; the proxy
  // shows the Free figures so that the rate-limit headers still fit the plan.
  const { result, summary } = await replayThrough({
    request: (request) =>
      request.headers.authorization === `Bearer ${DEMO_KEYS.free[0]}` ? { ...request, headers: { ...request.headers, authorization: `Bearer ${DEMO_KEYS.enterprise[0]}`, 'x-lent': '1' } } : request,
    response: (response, request) =>
      request.headers['x-lent'] ? { ...response, headers: { ...response.headers, 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '30' } } : response,
  });
  expect(result.code, explain(result)).toBe(0);
  expect(summary).toMatchObject({ differences: { exchanges: 0 }, violations: { exchanges: 0 }, throttled: { recorded429: 1, recorded429NotReproduced: 1 } });
  expect(result.stdout).toContain('recorded 429s: 1 (1 not reproduced)');
});
