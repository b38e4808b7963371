/**
 * Using a window up when its headers do not say where the minute window stands (they name the day): on a target
 * whose every answer takes longer than one of its minutes (a fast clock on a loaded machine), no request is
 * within a minute of the last answer, its own included. The search ends "unavailable", saying why, and never
 * with an error read as a failure.
 */
import { expect, test } from '@playwright/test';
import type { ReceivedResponse, Transport } from '../../../specs/support/exchange.ts';
import { freshWindow } from '../../../specs/support/minute-window.ts';
import { measuringClient, steppedClock } from './fake-target.ts';

test('answers each slower than a minute of the target, under the day window’s headers: the window search ends unavailable, not with an error', async () => {
  const { clock, advance } = steppedClock(1_800_000_000_000);
  let left = 1_000;
  const transport: Transport = {
    async send(): Promise<ReceivedResponse> {
      const now = advance(61_000);
      left--;
      const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': String(Math.ceil((now + 86_400_000) / 1000)) };
      return { status: 200, headers, body: '[]' };
    },
  };
  const fresh = await freshWindow(measuringClient(transport, clock, 'PLAN-FREE'), { quota: { perMinute: 60, perDay: 1_000 }, maxWaitMs: 80_000 });
  expect(fresh).toEqual({ unavailable: expect.stringContaining('too slowly to show that more than a minute') });
});
