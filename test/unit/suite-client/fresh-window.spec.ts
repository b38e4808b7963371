/**
 * Finding a fresh minute window on a sliding log whose requests were spread out over the last minute: each
 * Reset frees one old request and each probe adds one, so probing at every Reset never finds the window empty.
 * After a few such probes the search waits one whole quiet minute, which frees any minute window.
 */
import { expect, test } from '@playwright/test';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { freshWindow } from '../../../specs/support/minute-window.ts';
import { measuringClient, steppedClock } from './fake-target.ts';

const LIMIT = 60;
const MINUTE = 60_000;

/** A clock that only moves when waited on, and a sliding log of one key's last minute on it. */
function slidingLog(spreadOverLastMinute: number) {
  const { clock } = steppedClock(1_800_000_000_000);
  let log = Array.from({ length: spreadOverLastMinute }, (_, index) => clock.now() - MINUTE + (index + 1) * (MINUTE / spreadOverLastMinute));
  const transport: Transport = {
    async send(): Promise<ReceivedResponse> {
      const now = clock.now();
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
  const client = measuringClient(transport, clock, 'RL-GAP-2');
  const started = clock.now();
  const fresh = await freshWindow(client, { quota: { perMinute: LIMIT, perDay: 1_000 }, maxWaitMs: 80_000 });
  expect('probe' in fresh ? fresh.by : fresh).toBe('headers');
  expect(clock.now() - started, 'three probes a Reset apart, then one quiet minute').toBeLessThan(2 * MINUTE);
});
