import { expect, test } from '@playwright/test';
import { MEASURE_SLACK_MS, readRetryAfter, retryAfterMs } from '../../../../lib/rate-limiter/retry-after.ts';

const answeredAt = Date.UTC(1994, 10, 6, 8, 49, 30);

test.describe('the one Retry-After reader', () => {
  test('delta-seconds: a span from the answer, with only the timestamps\' slack, whatever the Date header says', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(' 12 ')).toBe(12_000);
    expect(readRetryAfter(' 12 ', { answeredAt, date: 'Sun, 06 Nov 1994 08:40:00 GMT', clockSkewMs: 5_000 })).toEqual({ waitMs: 12_000, slackMs: MEASURE_SLACK_MS, text: '12' });
  });

  test('an HTTP-date in all three RFC 9110 forms, read against the answer\'s time without a Date header', () => {
    for (const form of ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994']) {
      expect(retryAfterMs(form, answeredAt), form).toBe(7_000);
      expect(readRetryAfter(form, { answeredAt, clockSkewMs: 2_000 }), form).toEqual({ waitMs: 7_000, slackMs: MEASURE_SLACK_MS + 1_000 + 2_000, text: form });
    }
  });

  test('an HTTP-date with the answer\'s Date header: both the target\'s clock, so the reader\'s clock and its skew do not enter', () => {
    const wait = readRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', { answeredAt: answeredAt + 60_000, date: 'Sun, 06 Nov 1994 08:49:34 GMT', clockSkewMs: 2_000 });
    expect(wait).toEqual({ waitMs: 3_000, slackMs: MEASURE_SLACK_MS + 1_000, text: 'Sun, 06 Nov 1994 08:49:37 GMT' });
    // A Date header that is no HTTP-date is not used: the answer's time is.
    expect(readRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', { answeredAt, date: 'yesterday' })?.waitMs).toBe(7_000);
  });

  test('a date already past asks for no wait, never a negative one', () => {
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:00 GMT', answeredAt)).toBe(0);
    expect(readRetryAfter('Sun, 06 Nov 1994 08:49:00 GMT', { answeredAt, date: 'Sun, 06 Nov 1994 08:49:30 GMT' })?.waitMs).toBe(0);
  });

  test('absent, negative, fractional or garbage values are no reading at all', () => {
    for (const value of [undefined, '', '-1', '1.5', '1s', 'tomorrow', '2030-12-05T00:00:00Z', 'Sun, 06 Nov 1994 08:49:37 UTC']) {
      expect(readRetryAfter(value, { answeredAt, date: 'Sun, 06 Nov 1994 08:49:30 GMT' }), String(value)).toBeUndefined();
      expect(retryAfterMs(value, answeredAt), String(value)).toBeUndefined();
    }
  });
});
