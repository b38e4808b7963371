/**
 * The load client against the bundled reference server in its own process, with a minute of 1 s
 * (PETSTORE_TIME_SCALE=60): exactly 60 admitted per Free window that ran out, the day cut off at exactly
 * 1,000 in about 17 windows, and a naive client hammering after 429 banned for 10 of the server's minutes.
 */
import { expect, test } from '@playwright/test';
import { spawnReferenceServer } from '../../reference-server/spawn.ts';
import { keyOf, overLimit, runAgainst, verdictOf } from './support/run.ts';

test('quotas hold against the bundled server at scaled time: 60 per Free window, 1,000 per day, bans observed', async () => {
  const server = await spawnReferenceServer({ env: { PETSTORE_TIME_SCALE: '60' } });
  try {
    const summary = await runAgainst(
      server.baseUrl,
      [
        { plan: 'free', keyNumber: 1, behaviour: 'compliant', rate: overLimit(1.1) },
        // Just under the minute limit, so a burst after a stall on a busy machine cannot get it banned: the
        // day's 1,000 are reached in about 17 windows.
        { plan: 'free', keyNumber: 2, behaviour: 'naive', rate: overLimit(0.97) },
        { plan: 'free', keyNumber: 3, behaviour: 'naive', rate: overLimit(2) },
      ],
      19_000,
      60,
    );

    const compliant = keyOf(summary, 'free #1 compliant');
    const ranOut = compliant.windows.filter((w) => w.windowClass === 'minute' && w.refused > 0);
    expect(ranOut.length).toBeGreaterThanOrEqual(6);
    for (const window of ranOut) {
      expect(window.admitted, `window ${window.number}`).toBe(60);
      expect(window.firstRefusalAt, `window ${window.number}`).toBe(61);
    }
    expect(verdictOf(compliant, 'retry-after-admitted').status).toBe('pass');
    expect(compliant.bans).toEqual([]);

    const naive = keyOf(summary, 'free #2 naive');
    const minuteWindows = naive.windows.filter((w) => w.windowClass === 'minute');
    expect(minuteWindows.length).toBeGreaterThanOrEqual(16);
    expect(minuteWindows.every((w) => w.admitted <= 60 && (w.refused === 0 || w.admitted === 60))).toBe(true);
    expect(naive.admitted).toBe(1_000);
    expect(naive.days[0]?.cutoff?.admittedBefore).toBe(1_000);
    expect(verdictOf(naive, 'daily-quota').status).toBe('pass');

    const hammering = keyOf(summary, 'free #3 naive');
    const ban = verdictOf(hammering, 'ban');
    expect(ban.status).toBe('observed');
    expect(hammering.bans[0]?.announcedMs).toBe(10_000);

    expect(summary.keys.flatMap((key) => key.verdicts.filter((v) => v.status === 'fail').map((v) => `${key.label} ${v.check}: ${v.detail}`))).toEqual([]);
    expect(summary.status).toBe('pass');
    expect(summary.plans[0]?.status).toBe('pass');
  } finally {
    await server.stop();
  }
});
