import { expect, test } from '@playwright/test';
import { compareStandardFields, parseLimits, parsePolicies } from '../../../../lib/rate-limiter/standard-fields.ts';
import { breachStatus } from '../../../../lib/verdicts/breach.ts';

const NOW = 1_800_000_000_000;
const xHeaders = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': String(NOW / 1000 + 18) };

test('RateLimit-Policy and RateLimit are read as Structured Field lists (draft-ietf-httpapi-ratelimit-headers)', () => {
  expect(parsePolicies('"minute";q=60;w=60, "day";q=1000;w=86400')).toEqual([
    { name: 'minute', quota: 60, windowSeconds: 60 },
    { name: 'day', quota: 1000, windowSeconds: 86400 },
  ]);
  expect(parseLimits('"minute";r=42;t=18')).toEqual([{ name: 'minute', remaining: 42, resetSeconds: 18 }]);
  expect(parseLimits('default;r=1;t=2;pk=:cHsdsRA=:')).toEqual([{ name: 'default', remaining: 1, resetSeconds: 2 }]);
  expect(parsePolicies('q=60; "minute"')).toBeUndefined();
});

test('standard fields that say what X-RateLimit-* says agree; any difference is named', () => {
  expect(compareStandardFields(xHeaders, NOW)).toEqual({ absent: true, said: expect.any(String), disagreements: [] });
  const agreeing = { ...xHeaders, 'ratelimit-policy': '"minute";q=60;w=60', ratelimit: '"minute";r=42;t=18' };
  expect(compareStandardFields(agreeing, NOW).disagreements).toEqual([]);
  const disagreeing = { ...xHeaders, 'ratelimit-policy': '"minute";q=60;w=60', ratelimit: '"minute";r=41;t=60' };
  expect(compareStandardFields(disagreeing, NOW).disagreements).toEqual(['r=41 but X-RateLimit-Remaining 42', 't=60 but X-RateLimit-Reset is 18.0 s away']);
  expect(compareStandardFields({ ...xHeaders, 'ratelimit-policy': '"minute";q=100' }, NOW).disagreements[0]).toContain('no policy has q=60');
});

test('a rule broken is as grave as its level: a MUST fails, a GAP is observed, the strictest of several decides', () => {
  expect(breachStatus(['RL-7'])).toBe('fail');
  expect(breachStatus(['ERR-GAP-3'])).toBe('observed');
  expect(breachStatus(['LIST-6'])).toBe('warn');
  expect(breachStatus(['ERR-GAP-3', 'PLAN-FREE'])).toBe('fail');
});
