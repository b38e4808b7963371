/**
 * The built-in client against the table of cases both engines' clients must pass (fixtures/load/client-cases.json);
 * locustfile.spec.ts holds Locust's client to the same table.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../../lib/backoff.ts';
import { fixturePath } from '../../lib/fixtures.ts';
import { readRateLimit } from '../../lib/rate-limit-headers.ts';
import { decidedAfter } from '../../lib/rate-limiter/order.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import { outcomeOf } from '../../harness/load/observation.ts';
import { operationPicker } from '../../harness/load/runner.ts';
import type { Mix } from '../../harness/load/scenario.ts';

interface Cases {
  backoff: Array<{ attempt: number; retryAfterMs: number | null; roll: number; waitMs: number }>;
  retryAfter: Array<{ value: string | null; nowMs: number; waitMs: number | null }>;
  rateLimit: Array<{ limit: string | null; remaining: string | null; reset: string | null; parsed: [number, number, number] | null }>;
  operations: Array<{ mix: Mix; roll: number; operation: string }>;
  outcome: Array<{ status: number; outcome: string }>;
  order: Array<{ answeredAt: number; sentAt: number; after: boolean }>;
}

const cases = JSON.parse(readFileSync(fixturePath('load', 'client-cases.json'), 'utf8')) as Cases;

test('backoff: Retry-After plus full jitter under 250 ms doubling to a 30 s cap', () => {
  expect(DEFAULT_BACKOFF).toMatchObject({ baseMs: 250, capMs: 30_000 });
  for (const c of cases.backoff) expect(backoffDelayMs(c.attempt, c.retryAfterMs ?? undefined, DEFAULT_BACKOFF, () => c.roll), JSON.stringify(c)).toBe(c.waitMs);
});

test('Retry-After: delta-seconds or an HTTP-date, else unreadable', () => {
  for (const c of cases.retryAfter) expect(retryAfterMs(c.value ?? undefined, c.nowMs) ?? null, JSON.stringify(c)).toBe(c.waitMs);
});

test('X-RateLimit-Limit, -Remaining and -Reset: all three whole numbers, or none', () => {
  for (const c of cases.rateLimit) {
    const read = readRateLimit({ 'x-ratelimit-limit': c.limit ?? undefined, 'x-ratelimit-remaining': c.remaining ?? undefined, 'x-ratelimit-reset': c.reset ?? undefined });
    expect(read ? [read.limit, read.remaining, read.reset] : null, JSON.stringify(c)).toEqual(c.parsed);
  }
});

test('the operation mix: weights laid out on [0, 1) in the order list, create, get', () => {
  for (const c of cases.operations) expect(operationPicker(c.mix, () => c.roll)(), JSON.stringify(c)).toBe(c.operation);
});

test('outcomes: 429 refused, 401/403/5xx/no answer errors, every other answer admitted', () => {
  for (const c of cases.outcome) expect(outcomeOf(c.status), String(c.status)).toBe(c.outcome);
});

test('decided after, on one clock: a request that left once an answer was in (a generator admitted after its own refusal)', () => {
  for (const c of cases.order) expect(decidedAfter({ receivedAt: c.answeredAt }, { sentAt: c.sentAt }, 0) === 'after', JSON.stringify(c)).toBe(c.after);
});
