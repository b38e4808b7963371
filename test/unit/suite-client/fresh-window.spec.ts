/**
 * Finding a fresh minute window on a sliding log whose requests were spread out over the last minute: each
 * Reset frees one old request and each probe adds one, so probing at every Reset never finds the window empty.
 * After a few such probes the search waits one whole quiet minute, which frees any minute window.
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import type { TargetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { freshWindow } from '../../../specs/support/minute-window.ts';

const LIMIT = 60;
const MINUTE = 60_000;

/** A clock that only moves when waited on, and a sliding log of one key's last minute on it. */
function slidingLog(spreadOverLastMinute: number) {
  let now = 1_800_000_000_000;
  const clock: TargetClock = { rate: 1, now: () => now, at: (ms) => ms, toRealMs: (ms) => ms, toTargetMs: (ms) => ms, sleep: async (ms) => void (now += ms) };
  let log = Array.from({ length: spreadOverLastMinute }, (_, index) => now - MINUTE + (index + 1) * (MINUTE / spreadOverLastMinute));
  const transport: Transport = {
    async send(): Promise<ReceivedResponse> {
      log = log.filter((at) => at > now - MINUTE);
      const admitted = log.length < LIMIT;
      if (admitted) log.push(now);
      const reset = String(Math.ceil((log[0]! + MINUTE) / 1000));
      const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': String(LIMIT), 'x-ratelimit-remaining': String(LIMIT - log.length), 'x-ratelimit-reset': reset };
      return admitted ? { status: 200, headers, body: '[]' } : { status: 429, headers: { ...headers, 'retry-after': '1' }, body: '{"code":"rate_limited","message":"slow down","status":429}' };
    },
  };
  return { clock, transport };
}

test('a sliding log with a minute of spread-out requests: a quiet minute finds the fresh window that probing at each Reset never does', async () => {
  const { clock, transport } = slidingLog(50);
  const client = new PetStoreClient({
    transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-free-1',
    plan: 'free',
    judge: new RuleJudge(test.info(), 'RL-GAP-2', new Redactor(DEMO_KEYS)),
    politeness: 'measure',
    timeLeftMs: () => Number.POSITIVE_INFINITY,
    clock,
  });
  const started = clock.now();
  const fresh = await freshWindow(client, { quota: { perMinute: LIMIT, perDay: 1_000 }, maxWaitMs: 80_000 });
  expect('probe' in fresh ? fresh.by : fresh).toBe('headers');
  expect(clock.now() - started, 'three probes a Reset apart, then one quiet minute').toBeLessThan(2 * MINUTE);
});
