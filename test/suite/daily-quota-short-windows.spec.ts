/**
 * The day is consumed at the minute window's real length. Two limiters in a row (a minute's, then a day's, as
 * express-rate-limit runs two windows) whose minute windows last one real second: admitted answers carry the
 * day's headers, so nothing on them tells the window's length, but the minute limiter's 429 names its window's
 * end. The daily test learns the length from those refusals and uses the Free day up within the default budget,
 * where it once assumed the documented minute ("17 windows of about 60 s") and skipped.
 */
import { expect, test } from '@playwright/test';
import type { Quota } from '../../lib/plans.ts';
import type { RateDecision, RateLimiter } from '../../reference-server/limiter.ts';
import { failed, ruleTitle, runSuite } from './support/run-suite.ts';
import { startVariant } from './support/variant-target.ts';

const MINUTE_WINDOW_MS = 1_000;
const DAY_WINDOW_MS = 1_440 * MINUTE_WINDOW_MS;

interface Window {
  end: number;
  hits: number;
}

/** Each window opens at its subject's first request after the last one ended; a minute's refusal never reaches the day's limiter. */
class ShortMinuteThenDay implements RateLimiter {
  private readonly minutes = new Map<string, Window>();
  private readonly days = new Map<string, Window>();

  take(subject: string, quota: Quota, now: number): RateDecision {
    const minute = hit(this.minutes, subject, MINUTE_WINDOW_MS, now);
    if (minute.hits > quota.perMinute) return refused(quota.perMinute, minute, now);
    const day = hit(this.days, subject, DAY_WINDOW_MS, now);
    if (day.hits > quota.perDay) return refused(quota.perDay, day, now);
    return { admitted: true, banned: false, limit: quota.perDay, remaining: quota.perDay - day.hits, reset: Math.ceil(day.end / 1000) };
  }
}

function hit(windows: Map<string, Window>, subject: string, lengthMs: number, now: number): Window {
  const open = windows.get(subject);
  const window = open && open.end > now ? open : { end: now + lengthMs, hits: 0 };
  windows.set(subject, window);
  window.hits++;
  return window;
}

function refused(limit: number, window: Window, now: number): RateDecision {
  return { admitted: false, banned: false, limit, remaining: 0, reset: Math.ceil(window.end / 1000), retryAfter: Math.max(1, Math.ceil((window.end - now) / 1000)) };
}

test("two stacked limiters with one-second windows: the Free daily test learns the window from the minute's 429s and uses the day up within the default budget", async () => {
  test.setTimeout(240_000);
  const target = await startVariant({ limiter: new ShortMinuteThenDay() });
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
