/**
 * A gateway's own access log judged: Debian's nginx in front of the reference server, the load client's
 * traffic through it, and nginx's log (the how-to's log_format) judged with no rule failed; in front of a
 * limiter whose 429s lack Retry-After, the same log fails RL-1. Skipped, saying how to get nginx, where
 * there is none.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { RateLimiter } from '../../reference-server/limiter.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { NoRetryAfterLimiter } from '../load/support/limiters.ts';
import { overLimit, runAgainst } from '../load/support/run.ts';
import { NGINX_HINT, nginxPath, startNginx } from './nginx.ts';
import { failures, judged, verdictOf } from './support.ts';

const SCALE = 10;
const TRAFFIC = [
  { plan: 'free' as const, keyNumber: 1, behaviour: 'compliant' as const, rate: overLimit(2) },
  { plan: 'pro' as const, keyNumber: 2, behaviour: 'compliant' as const, rate: overLimit(0.5) },
];

test.skip(nginxPath() === undefined, NGINX_HINT);

async function throughNginx(limiter: RateLimiter | undefined): Promise<string> {
  const server = await createReferenceServer({ timeScale: SCALE }, limiter ? { limiter } : {});
  const gateway = await startNginx(server.baseUrl);
  try {
    await runAgainst(gateway.baseUrl, TRAFFIC, 5_000, SCALE);
  } finally {
    await gateway.stop();
    await server.close();
  }
  return gateway.accessLog;
}

test("nginx's access log of traffic to the correct server is judged with no rule failed, keys named only by plan", async () => {
  const log = await throughNginx(undefined);
  const report = await judged(log);
  expect(failures(report)).toEqual({});
  for (const rule of ['RL-1', 'RL-4', 'RL-5', 'CREATE-3']) expect.soft(verdictOf(report, rule), rule).not.toBe('fail');
  expect(verdictOf(report, 'RL-4')).toBe('pass');
  expect(verdictOf(report, 'RL-1')).toBe('pass');
  // nginx logs no response bodies: the rules of bodies are not judged, never passed.
  expect(verdictOf(report, 'RESP-2')).toBe('skipped');
  expect(JSON.stringify(report)).not.toContain('demo-free-1');
  expect(readFileSync(log, 'utf8')).toContain('"x-ratelimit-remaining":"');
});

test("nginx's access log of 429s without Retry-After fails RL-1", async () => {
  const report = await judged(await throughNginx(new NoRetryAfterLimiter(SCALE)));
  expect(Object.keys(failures(report))).toEqual(['RL-1']);
});
