/**
 * Using a window up when its headers do not say where the minute window stands (they name the day): on a target
 * whose every answer takes longer than one of its minutes (a fast clock on a loaded machine), no request is
 * within a minute of the last answer, its own included. The search ends "unavailable", saying why, and never
 * with an error read as a failure.
 */
import { expect, test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import type { TargetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';
import { freshWindow } from '../../../specs/support/minute-window.ts';

test('answers each slower than a minute of the target, under the day window’s headers: the window search ends unavailable, not with an error', async () => {
  let now = 1_800_000_000_000;
  const clock: TargetClock = { rate: 1, now: () => now, at: (ms) => ms, toRealMs: (ms) => ms, toTargetMs: (ms) => ms, sleep: async (ms) => void (now += ms) };
  let left = 1_000;
  const transport: Transport = {
    async send(): Promise<ReceivedResponse> {
      now += 61_000;
      left--;
      const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': String(Math.ceil((now + 86_400_000) / 1000)) };
      return { status: 200, headers, body: '[]' };
    },
  };
  const client = new PetStoreClient({
    transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-free-1',
    plan: 'free',
    judge: new RuleJudge(test.info(), 'PLAN-FREE', new Redactor(DEMO_KEYS)),
    politeness: 'measure',
    timeLeftMs: () => Number.POSITIVE_INFINITY,
    clock,
  });
  const fresh = await freshWindow(client, { quota: { perMinute: 60, perDay: 1_000 }, maxWaitMs: 80_000 });
  expect(fresh).toEqual({ unavailable: expect.stringContaining('too slowly to show that more than a minute') });
});
