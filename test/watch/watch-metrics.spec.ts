/**
 * The watcher's metrics on a broken gateway and a hammering client, as the alerts read them: client-rule
 * breaches by key pseudonym, the first --max-keys keys by name and the rest as key="other"; a MUST rule's
 * failures with its level; never a key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Watcher } from '../../harness/watch/watcher.ts';
import { tempDir } from '../judge/support.ts';

const START_S = Date.UTC(2026, 10, 1) / 1000;
const LIMIT = 300;
/** A key planted in every line, which the metrics must never carry. */
const PLANTED_KEY = 'sk_live_secret_never_shown';

/** Two Pro keys that resend every 50 ms whatever the 429s ask; the gateway leaves Retry-After off pro-2's last refusals. */
function hammeringLog(): string {
  const lines: string[] = [];
  for (let n = 0; n < 700; n++) {
    for (const [index, key] of ['pro-1', 'pro-2'].entries()) {
      const at = START_S + n * 0.05 + index * 0.02;
      const admitted = n < LIMIT;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-ratelimit-limit': String(LIMIT), 'x-ratelimit-remaining': String(Math.max(0, LIMIT - n - 1)), 'x-ratelimit-reset': String(START_S + 60) };
      if (!admitted && !(key === 'pro-2' && n > 650)) headers['retry-after'] = String(Math.ceil(START_S + 60 - at));
      lines.push(JSON.stringify({ time: at.toFixed(3), duration: '0.003', key, plan: 'pro', method: 'GET', url: '/v1/pets?limit=3', status: admitted ? 200 : 429, requestHeaders: { authorization: `Bearer ${PLANTED_KEY}` }, responseHeaders: headers, responseBody: admitted ? '[]' : '{"code":"rate_limited","message":"Too many requests","status":429}' }));
    }
  }
  return `${lines.join('\n')}\n`;
}

test('a hammering client is named by pseudonym up to the cap, the rest counted as other; a MUST failure carries its level; no key', async () => {
  const dir = tempDir('watch-metrics');
  const log = join(dir, 'access.log');
  writeFileSync(log, hammeringLog());
  const watcher = new Watcher({ log, stateFile: undefined, env: {}, clockSkewMs: 1_000, maxKeys: 1, warn: () => {} });
  while (watcher.poll() > 0);
  const metrics = await watcher.live.metrics.text();
  expect(metrics).toMatch(/petstore_watch_client_breaches_total\{key="pro-1",rule="ERR-3"\} [1-9]/);
  expect(metrics).toMatch(/petstore_watch_client_breaches_total\{key="other",rule="ERR-3"\} [1-9]/);
  expect(metrics).not.toContain('key="pro-2"');
  expect(metrics).toMatch(/petstore_watch_rule_failures_total\{rule="RL-1",level="MUST"\} [1-9]/);
  expect(metrics).not.toContain(PLANTED_KEY);
  expect(metrics).not.toContain('sk_live');
});
