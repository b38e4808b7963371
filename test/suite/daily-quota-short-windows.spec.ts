/**
 * The day is consumed at the minute window's real length. Two limiters in a row (a minute's, then a day's, as
 * express-rate-limit runs two windows) whose minute windows last one real second: admitted answers carry the
 * day's headers, so nothing on them tells the window's length, but the minute limiter's 429 names its window's
 * end. The daily test learns the length from those refusals and uses the Free day up within the default budget,
 * where it once assumed the documented minute ("17 windows of about 60 s") and skipped.
 */
import { expect, test } from '@playwright/test';
import { MinuteAndDayLimiters } from '../support/minute-and-day-limiters.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

/** The minute window lasts one real second. */
const TIME_SCALE = 60;

test("two stacked limiters with one-second windows: the Free daily test learns the window from the minute's 429s and uses the day up within the default budget", async () => {
  test.setTimeout(240_000);
  const target = await startVariant({ limiter: new MinuteAndDayLimiters(TIME_SCALE) });
  try {
    const run = await runSuite({ label: 'daily-quota-short-windows', baseUrl: target.baseUrl, quotaTests: true, titles: [ruleTitle('PLAN-FREE', '.* in a day')] });
    expect(run.tests.map((item) => item.title)).toEqual([expect.stringMatching(/^PLAN-FREE MUST a Free key is admitted at most 1,000 requests in a day/)]);
    const [daily] = run.tests;
    const skip = daily!.annotations.find((annotation) => annotation.type === 'skip')?.description;
    expect(daily!.status, skip ?? daily!.errors.join('\n')).toBe('passed');
    expect(run.tests.filter(failed)).toEqual([]);
  } finally {
    await target.close();
  }
});
