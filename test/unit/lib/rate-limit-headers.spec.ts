import { expect, test } from '@playwright/test';
import { parseHttpDate, readRateLimit } from '../../../lib/rate-limit-headers.ts';

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

  test('parseHttpDate takes only HTTP-dates', () => {
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 GMT')).toBe(Date.UTC(2030, 11, 5));
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 UTC')).toBeUndefined();
  });
});
