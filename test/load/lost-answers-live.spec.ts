/**
 * The load client's own lost answers: the reference server (fixed windows) behind a proxy that loses every seventh
 * admitted answer after the server counted it, by holding it past the client's request timeout or by resetting the
 * connection. The runner records each as an error with no headers, the windows show fewer admitted than the limit
 * before their 429 and skipped Remaining values, and the run must still fail and warn nothing, naming the lost answers
 * where a check is left undone. (lost-answers.spec.ts proves the same of every kind of limiter, simulated.)
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { createReferenceServer } from '../../reference-server/server.ts';
import { RESET_CONNECTION, startFaultProxy, type ProxyResponse } from '../support/fault-proxy.ts';
import { keyOf, overLimit, runAgainst } from './support/run.ts';

/** Windows of 2 s: two or three of them run out in the run. */
const SCALE = 30;
const TIMEOUT_MS = 300;

for (const [how, lose] of [
  ['held past the request timeout', () => new Promise<ProxyResponse>((resolve) => setTimeout(() => resolve(RESET_CONNECTION), 3 * TIMEOUT_MS))],
  ['a reset connection', () => RESET_CONNECTION],
] as const) {
  test(`the reference server with every seventh admitted answer lost (${how}) fails and warns nothing`, async () => {
    const server = await createReferenceServer({ timeScale: SCALE });
    let admitted = 0;
    const proxy = await startFaultProxy(server.baseUrl, { response: (response) => (response.status < 300 && ++admitted % 7 === 0 ? lose() : response) });
    try {
      const summary = await runAgainst(proxy.baseUrl, [{ plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.5) }], 5_000, SCALE, 32, DEMO_KEYS, { requestTimeoutMs: TIMEOUT_MS });
      const key = keyOf(summary, 'free #1 compliant');
      const broken = key.verdicts.filter((verdict) => verdict.status === 'fail' || verdict.status === 'warn');
      expect(broken, JSON.stringify(broken, null, 1)).toEqual([]);
      // The client's backoff after a lost answer is no 429 that gave no Retry-After.
      expect(key.verdicts.find((verdict) => verdict.check === 'retry-after-admitted')?.detail).not.toContain('RL-1');
      const unchecked = key.windows.flatMap((window) => window.checks).filter((check) => check.status === 'not-checked' && /got no readable answer while this window was open/.test(check.message));
      expect(unchecked.length, JSON.stringify(key.windows.map((window) => window.checks), null, 1)).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
}
