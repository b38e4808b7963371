import { expect, test } from '@playwright/test';
import { parseHttpDate, readRateLimit, retryAfterMs } from '../../../lib/rate-limit-headers.ts';

test.describe('rate-limit headers', () => {
  test('reads the three X-RateLimit headers as whole numbers', () => {
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' })).toEqual({
      limit: 60,
      remaining: 0,
      reset: 1700000000,
    });
    expect(readRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1' })).toBeUndefined();
    expect(readRateLimit({ 'x-ratelimit-limit': '6.5', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' })).toBeUndefined();
    expect(readRateLimit({ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' })).toBeUndefined();
  });

  test('Retry-After as delta-seconds', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(' 12 ')).toBe(12_000);
    expect(retryAfterMs('-1')).toBeUndefined();
    expect(retryAfterMs('1.5')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  test('Retry-After as an HTTP-date in all three RFC 9110 forms', () => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 30);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(7_000);
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7_000);
    expect(retryAfterMs('Sun Nov  6 08:49:37 1994', now)).toBe(7_000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:00 GMT', now)).toBe(0);
    expect(retryAfterMs('tomorrow', now)).toBeUndefined();
    expect(retryAfterMs('2030-12-05T00:00:00Z', now)).toBeUndefined();
  });

  test('parseHttpDate takes only HTTP-dates', () => {
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 GMT')).toBe(Date.UTC(2030, 11, 5));
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 UTC')).toBeUndefined();
  });
});
