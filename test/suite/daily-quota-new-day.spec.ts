/**
 * A day that starts anew while the daily test uses it up: windows aligned to the clock (ClockWindowLimiter), the
 * server's clock run fast and placed so that its UTC midnight falls while Business's hundred windows are being
 * used up. The count then goes past the quota on a fresh day; the test notices the midnight and ends partly
 * checked with that cause, never "request 100,001 was admitted".
 */
import { expect, test } from '@playwright/test';
import { anchorReading } from '../../lib/target-clock.ts';
import { BUNDLED_CLOCK_RATE } from '../../specs/support/settings.ts';
import { ClockWindowLimiter } from '../support/clock-window-limiter.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const DAY_MS = 86_400_000;
/** Real time from the start of the run to the server's midnight: past the suite's start-up, within Business's day (about 25 s of windows). */
const MIDNIGHT_AFTER_MS = 20_000;

/** The anchor that puts the server's next UTC midnight `afterMs` of real time from now, at `rate`. */
function anchorForMidnight(rate: number, afterMs: number): number {
  const at = Date.now() + afterMs;
  return anchorReading(rate, at, Math.ceil(at / DAY_MS) * DAY_MS);
}

test("a clock-aligned day that starts anew during Business's daily test leaves it partly checked, naming the midnight, not failed", async () => {
  test.setTimeout(300_000);
  const target = await startVariant({ limiter: new ClockWindowLimiter(), clockRate: BUNDLED_CLOCK_RATE, clockAnchorMs: anchorForMidnight(BUNDLED_CLOCK_RATE, MIDNIGHT_AFTER_MS) });
  try {
    const run = await runSuite({
      label: 'daily-quota-new-day',
      baseUrl: target.baseUrl,
      quotaTests: true,
      titles: [ruleTitle('PLAN-BUSINESS', '.* in a day')],
      env: { ...target.clockEnv, PETSTORE_QUOTA_BUDGET_SECONDS: '300' },
      timeoutMs: 280_000,
    });
    expect(run.tests.map((item) => item.title)).toEqual([expect.stringMatching(/^PLAN-BUSINESS MUST a Business key is admitted at most 100,000 requests in a day/)]);
    const [daily] = run.tests;
    expect(run.tests.filter(failed).map((item) => item.errors.join('\n'))).toEqual([]);
    expect(daily!.status, run.output.slice(-2_000)).toBe('passed');
    const unchecked = daily!.annotations.filter((annotation) => annotation.type === 'unchecked').map((annotation) => annotation.description ?? '');
    expect(unchecked.join('\n'), run.output.slice(-2_000)).toMatch(/\[PLAN-BUSINESS\] whether a day admits no more than 100,000: .* passed UTC midnight/);
  } finally {
    await target.close();
  }
});
