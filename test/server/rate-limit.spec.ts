/** Quotas per key and plan over HTTP: headers on every response, exact counting, 429s, the ban, time scale. */
import { expect, test } from '@playwright/test';
import type { OperationId } from '../../lib/contract.ts';
import { targetClock } from '../../lib/target-clock.ts';
import { configFromEnv } from '../../reference-server/config.ts';
import { MINUTE_MS } from '../../reference-server/limiter.ts';
import { SlidingWindowLimiter } from '../support/sliding-window-limiter.ts';
import { contractProblems, rawExchange, TestServer, type Answer } from './support.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

function limitOf(answer: Answer): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(answer.headers['x-ratelimit-limit']),
    remaining: Number(answer.headers['x-ratelimit-remaining']),
    reset: Number(answer.headers['x-ratelimit-reset']),
  };
}

test('200 concurrent requests on a fresh Free key in one window admit exactly 60', async () => {
  const server = await TestServer.start();
  try {
    const answers = await Promise.all(Array.from({ length: 200 }, () => server.call('/pets', { key: 'demo-free-1' })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(140);
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => limitOf(answer).remaining);
    expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 60 }, (_, i) => i)));
  } finally {
    await server.close();
  }
});

test('each plan gets its documented per-minute limit, Enterprise its configured one', async () => {
  const server = await TestServer.start({ quotas: { ...configFromEnv({}).quotas, enterprise: { perMinute: 5000, perDay: 90_000 } } });
  try {
    for (const [key, limit] of [['demo-free-2', 60], ['demo-pro-2', 300], ['demo-business-2', 1000], ['demo-enterprise-2', 5000]] as const) {
      const answer = await server.call('/pets', { key });
      expect(limitOf(answer), key).toMatchObject({ limit, remaining: limit - 1 });
    }
  } finally {
    await server.close();
  }
});

test('every response carries the headers; every authenticated request counts, 400 and 404 included; Reset stays put', async () => {
  let now = T0;
  const server = await TestServer.start({}, { clock: () => now });
  try {
    const key = 'demo-free-3';
    const calls: Array<[OperationId | undefined, () => Promise<Answer>]> = [
      ['listPets', () => server.call('/pets', { key })],
      ['listPets', () => server.call('/pets?limit=500', { key })],
      ['getPet', () => server.call('/pets/123456', { key })],
      ['createPet', () => server.call('/pets', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })],
      ['createPet', () => server.call('/pets', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a","categoryId":1}' })],
      ['listOrders', () => server.call('/store/orders', { key })],
      [undefined, () => server.call('/unknown', { key })],
      [undefined, () => server.call('/pets', { key, method: 'DELETE' })],
    ];
    let expected = 60;
    const statuses = new Set<number>();
    for (const [operation, call] of calls) {
      now += 1_000;
      const answer = await call();
      statuses.add(answer.status);
      expected--;
      expect(limitOf(answer), `${answer.status}`).toEqual({ limit: 60, remaining: expected, reset: Math.ceil((T0 + 1_000 + MINUTE_MS) / 1000) });
      if (operation) expect(contractProblems(operation, answer, { plan: 'free', now })).toEqual([]);
    }
    expect([...statuses].sort((a, b) => a - b)).toEqual([200, 201, 400, 404, 405]);
  } finally {
    await server.close();
  }
});

test('past the quota: 429 with an Error body and Retry-After until the window ends; admitted again after it', async () => {
  let now = T0;
  const server = await TestServer.start({}, { clock: () => now });
  try {
    for (let i = 0; i < 60; i++) await server.call('/pets', { key: 'demo-free-1' });
    now = T0 + 45_000;
    const refused = await server.call('/pets', { key: 'demo-free-1' });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.headers['retry-after']).toBe('15');
    expect(limitOf(refused)).toEqual({ limit: 60, remaining: 0, reset: (T0 + MINUTE_MS) / 1000 });
    expect(contractProblems('listPets', refused, { plan: 'free', now })).toEqual([]);
    // Refusals are not counted, and other keys are untouched.
    expect((await server.call('/pets', { key: 'demo-free-2' })).status).toBe(200);
    now = T0 + 45_000 + 15_000;
    const again = await server.call('/pets', { key: 'demo-free-1' });
    expect(again.status).toBe(200);
    expect(limitOf(again).remaining).toBe(59);
  } finally {
    await server.close();
  }
});

test('a key that keeps sending while refused is banned for 10 minutes, with the longer Retry-After', async () => {
  let now = T0;
  const server = await TestServer.start({}, { clock: () => now });
  try {
    for (let i = 0; i < 60; i++) await server.call('/pets', { key: 'demo-free-1' });
    const refusals = [];
    for (let i = 0; i < 10; i++) refusals.push(await server.call('/pets', { key: 'demo-free-1' }));
    expect(refusals.slice(0, 9).map((answer) => answer.headers['retry-after'])).toEqual(Array(9).fill('60'));
    const banned = refusals[9];
    expect(banned?.status).toBe(429);
    expect(banned?.json).toMatchObject({ code: 'banned', status: 429 });
    expect(banned?.headers['retry-after']).toBe('600');
    now = T0 + 2 * MINUTE_MS;
    const stillBanned = await server.call('/pets', { key: 'demo-free-1' });
    expect(stillBanned.status).toBe(429);
    expect(stillBanned.headers['retry-after']).toBe('480');
    now = T0 + 10 * MINUTE_MS;
    expect((await server.call('/pets', { key: 'demo-free-1' })).status).toBe(200);
  } finally {
    await server.close();
  }
});

test('requests without a valid key are answered 429 past the anonymous allowance of the address', async () => {
  const server = await TestServer.start({ anonymousPerMinute: 3 });
  try {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await server.call('/pets', { key: 'guess' }));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(answers[3]?.headers['retry-after']).toMatch(/^\d+$/);
    expect(limitOf(answers[3] as Answer)).toMatchObject({ limit: 3, remaining: 0 });
    // A valid key is not held back by the address's allowance.
    expect((await server.call('/pets', { key: 'demo-free-1' })).status).toBe(200);
  } finally {
    await server.close();
  }
});

test('PETSTORE_TIME_SCALE 60 makes the minute window one real second, headers still in real seconds', async () => {
  const server = await TestServer.start({ timeScale: 60 });
  try {
    const answers = await Promise.all(Array.from({ length: 61 }, () => server.call('/pets', { key: 'demo-free-1' })));
    const refused = answers.find((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(60);
    expect(refused?.headers['retry-after']).toBe('1');
    expect(limitOf(refused as Answer).reset - Date.now() / 1000).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await server.call('/pets', { key: 'demo-free-1' })).status).toBe(200);
  } finally {
    await server.close();
  }
});

test('a malformed request Node answers itself still carries the rate-limit headers', async () => {
  const server = await TestServer.start();
  try {
    const answer = await rawExchange(server.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(answer).not.toBe('closed');
    const { status, headers, json } = answer as Answer;
    expect(status).toBe(400);
    expect(json).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(headers['x-ratelimit-limit']).toBe('600');
  } finally {
    await server.close();
  }
});

test('the limiter is swappable: with a sliding window the server still answers by the contract', async () => {
  let now = T0;
  const server = await TestServer.start({}, { clock: () => now, limiter: new SlidingWindowLimiter() });
  try {
    for (let i = 0; i < 60; i++) {
      now += 500;
      expect((await server.call('/pets', { key: 'demo-free-1' })).status).toBe(200);
    }
    const refused = await server.call('/pets', { key: 'demo-free-1' });
    expect(refused.status).toBe(429);
    expect(contractProblems('listPets', refused, { plan: 'free', now })).toEqual([]);
    // The oldest request leaves the window a minute after it was made, freeing one slot at a time.
    now = T0 + 500 + MINUTE_MS;
    const one = await server.call('/pets', { key: 'demo-free-1' });
    expect(one.status).toBe(200);
    expect(limitOf(one).remaining).toBe(0);
  } finally {
    await server.close();
  }
});

test('PETSTORE_CLOCK_RATE 120 runs the server clock fast: Reset and Retry-After speak of that clock, and a client that converts them is admitted on time', async () => {
  const anchor = Date.now();
  const clock = targetClock(120, anchor);
  const server = await TestServer.start({ clockRate: 120, clockAnchorMs: anchor });
  try {
    const sentAt = clock.now();
    const answers = await Promise.all(Array.from({ length: 61 }, () => server.call('/pets', { key: 'demo-free-1' })));
    const refused = answers.find((answer) => answer.status === 429) as Answer;
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(60);
    const retryAfter = Number(refused.headers['retry-after']);
    // A minute of the fast clock is half a second: Retry-After counts that clock's seconds, up to the minute.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = limitOf(refused).reset;
    expect(reset * 1000).toBeGreaterThanOrEqual(sentAt);
    expect(reset * 1000).toBeLessThanOrEqual(clock.now() + 61_000);
    await clock.sleep(retryAfter * 1000 + 1_000);
    expect((await server.call('/pets', { key: 'demo-free-1' })).status).toBe(200);
  } finally {
    await server.close();
  }
});
