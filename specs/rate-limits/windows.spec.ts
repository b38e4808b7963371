/**
 * How windows behave from one request to the next: a 429 lapses after its Retry-After, Remaining counts down
 * by one, Reset holds still, higher plans get more. Each test leases its key so no other request meddles.
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { retryAfterMs, readRateLimit } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from '../support/client.ts';
import { freshWindow, measureMinuteWindow, measuringRequest } from '../support/minute-window.ts';
import { answer, objectIn, show } from '../support/pets.ts';
import { failBroken, type Broken } from '../support/target-broke.ts';
import { rule, test, type Target } from '../support/test.ts';
import { isAdmitted, readingOf, stepBetween, type Reading } from '../support/window-analysis.ts';
import { cheapestPlan, count, DOCUMENTED_PLANS, maxWindowWaitMs, quotaOf } from '../support/plan-quotas.ts';

function cheapest(target: Target): PlanId {
  const plan = cheapestPlan(target.keys);
  if (typeof plan === 'object') test.skip(true, plan.skip);
  return plan as PlanId;
}

test(...rule('RL-3', 'a request sent after waiting the time a 429 Retry-After gave for a minute window is admitted', { also: ['RL-GAP-2', 'ERR-GAP-1', 'ERR-GAP-3'] }), async ({ keys, check, target }, testInfo) => {
  const plan = cheapest(target);
  const { perMinute } = quotaOf(plan);
  const client = await keys.measuring(plan);
  const measured = await measureMinuteWindow(client, perMinute, { maxWaitMs: maxWindowWaitMs(testInfo.timeout, target.clock), alone: keys.alone });
  if ('unavailable' in measured) return test.skip(true, measured.unavailable);
  if ('broken' in measured) return failBroken(check, measured);
  const refusal = measured.extra;
  if (!check.expect(refusal.response.status === 429, `expected a 429 after ${count(perMinute)} requests in one window, got ${answer(refusal)}`, { rule: 'RL-1', evidence: refusal })) return;
  const header = refusal.response.headers['retry-after'];
  const waitMs = retryAfterMs(header, refusal.receivedAt);
  if (!check.expect(waitMs !== undefined, `expected a Retry-After to wait for, got ${header ?? 'none'}`, { rule: 'RL-1', evidence: refusal })) return;
  await client.clock.sleep(waitMs!);
  const after = await measuringRequest(client);
  check.expect(isAdmitted(readingOf(after)), `expected the request sent ${waitMs} ms after the 429 (Retry-After: ${header}) to be admitted, got ${answer(after)}`, { evidence: after });

  check.observe(`a 429 body: ${show(refusal.json ?? refusal.response.body)}`, 'ERR-GAP-1');
  const code = objectIn(refusal)?.code;
  check.gist(typeof code === 'string' ? `code ${code.slice(0, 30)}` : 'no Error code', 'ERR-GAP-1');
  // Provoking a ban takes a client that keeps sending while refused; the suite never does (the load script's naive client does).
  check.observe(
    `the suite sends nothing while refused, so it sees no ban: its 429 asked for ${waitMs} ms and the next request after that wait was ${after.response.status === 429 ? 'refused again' : 'admitted'}; \`npm run load\` with the naive client observes the ban`,
    'ERR-GAP-3',
  );
  check.gist(after.response.status === 429 ? 'refused after the wait' : 'no ban seen', 'ERR-GAP-3');
  const probe = readingOf(measured.probe);
  const back = readingOf(after);
  const untilReset = probe.reset === undefined ? '?' : ((probe.reset * 1000 - probe.sentAt) / 1000).toFixed(1);
  const aligned = probe.reset !== undefined && probe.reset % 60 === 0 ? 'ends on a whole clock minute' : 'is not aligned to clock minutes';
  const refill =
    back.limit !== undefined && back.remaining === back.limit - 1
      ? 'after Retry-After the whole quota was back at once (a fixed window)'
      : `after Retry-After ${back.remaining ?? 'an unknown number of'} requests were left (a sliding window or a bucket)`;
  check.observe(`the window a fresh request opened has its X-RateLimit-Reset ${untilReset} s later (whole seconds) and ${aligned}; ${refill}; Retry-After came as "${header}"`, 'RL-GAP-2');
  const fixed = back.limit !== undefined && back.remaining === back.limit - 1;
  check.gist(`${fixed ? 'fixed' : 'sliding'} windows${probe.reset !== undefined && probe.reset % 60 === 0 ? ' on clock minutes' : ''}; Retry-After as ${/^\s*\d+\s*$/.test(header ?? '') ? 'delta-seconds' : 'HTTP-date'}`, 'RL-GAP-2');
});

/** Requests one at a time from the start of a fresh window, as readings; retaken when every step crossed a window. */
async function oneAtATime(client: PetStoreClient, requests: number, maxWaitMs: number): Promise<Reading[] | string | Broken> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const fresh = await freshWindow(client, { maxWaitMs });
    if ('unavailable' in fresh) return fresh.unavailable;
    if ('broken' in fresh) return fresh;
    const readings = [readingOf(fresh.probe)];
    for (let index = 1; index < requests; index++) readings.push(readingOf(await measuringRequest(client)));
    if (readings.some((reading, index) => index > 0 && stepBetween(readings[index - 1]!, reading) === 'same-window')) return readings;
  }
  return 'every request fell in a new window in three attempts; the windows are shorter than one request';
}

test(...rule('RL-6', 'X-RateLimit-Remaining falls by one with each admitted request in a window'), async ({ keys, check, target }, testInfo) => {
  const client = await keys.measuring(cheapest(target));
  const readings = await oneAtATime(client, 10, maxWindowWaitMs(testInfo.timeout, target.clock));
  if (typeof readings === 'string') return test.skip(true, readings);
  if ('broken' in readings) return failBroken(check, readings);
  for (let index = 1; index < readings.length; index++) {
    const [before, after] = [readings[index - 1]!, readings[index]!];
    if (!isAdmitted(after) || stepBetween(before, after) !== 'same-window' || before.remaining === undefined) continue;
    check.expect(after.remaining === before.remaining - 1, `expected X-RateLimit-Remaining to fall from ${before.remaining} to ${before.remaining - 1}, got ${after.remaining ?? 'none'}`);
  }
});

test(...rule('RL-7', 'X-RateLimit-Reset is a Unix time in seconds that stays put within a window'), async ({ keys, check, target }, testInfo) => {
  const client = await keys.measuring(cheapest(target));
  const readings = await oneAtATime(client, 10, maxWindowWaitMs(testInfo.timeout, target.clock));
  if (typeof readings === 'string') return test.skip(true, readings);
  if ('broken' in readings) return failBroken(check, readings);
  for (let index = 1; index < readings.length; index++) {
    const [before, after] = [readings[index - 1]!, readings[index]!];
    if (stepBetween(before, after) !== 'reset-moved') continue;
    check.expect(false, `expected X-RateLimit-Reset to stay at ${before.reset} within the window (it had not ended), got ${after.reset}`);
  }
});

test(...rule('RL-8', 'a higher plan gets higher limits: Free below Pro below Business'), async ({ keys, check, target }) => {
  const given = DOCUMENTED_PLANS.filter((plan) => target.keys[plan].length > 0);
  test.skip(given.length < 2, 'set keys of at least two of PETSTORE_API_KEY_FREE, PETSTORE_API_KEY_PRO, PETSTORE_API_KEY_BUSINESS to run this');
  const limits: Array<{ plan: PlanId; limit: number | undefined; kind: 'minute' | 'day' | 'other' }> = [];
  for (const plan of given) {
    const exchange = await (await keys.common(plan)).listPets({ limit: 1 });
    const limit = readRateLimit(exchange.response.headers)?.limit;
    const quota = quotaOf(plan);
    limits.push({ plan, limit, kind: limit === quota.perMinute ? 'minute' : limit === quota.perDay ? 'day' : 'other' });
  }
  for (let index = 1; index < limits.length; index++) {
    const [lower, higher] = [limits[index - 1]!, limits[index]!];
    if (lower.limit === undefined || higher.limit === undefined || lower.kind !== higher.kind) continue;
    check.expect(
      lower.limit < higher.limit,
      `expected a ${plans[higher.plan].name} key's X-RateLimit-Limit above a ${plans[lower.plan].name} key's (${lower.limit}), got ${higher.limit}`,
    );
  }
});

test(...rule('RL-GAP-1', 'whether limits are counted per key or per account'), async ({ keys, check, target }, testInfo) => {
  const plan = cheapest(target);
  test.skip(target.roles.measuring[plan].length < 2, `add a second key to PETSTORE_API_KEY_${plan.toUpperCase()} to see whether keys share a count`);
  const first = await keys.measuring(plan);
  const second = await keys.measuring(plan, { except: [(first.authorization ?? '').replace(/^Bearer /, '')] });
  const fresh = await freshWindow(first, { maxWaitMs: maxWindowWaitMs(testInfo.timeout, target.clock) });
  if ('unavailable' in fresh) return test.skip(true, fresh.unavailable);
  if ('broken' in fresh) return failBroken(check, fresh);
  for (let index = 0; index < 3; index++) await measuringRequest(second);
  const before = readingOf(fresh.probe);
  const after = readingOf(await measuringRequest(first));
  if (before.reset !== after.reset || before.remaining === undefined || after.remaining === undefined) {
    return check.observe('the window ended during the observation; nothing can be said');
  }
  const fell = before.remaining - after.remaining;
  check.observe(
    fell === 1
      ? `two ${plans[plan].name} keys are counted apart: 3 requests on one did not lower the other's Remaining (${before.remaining} → ${after.remaining} for its own request)`
      : fell === 4
        ? `two ${plans[plan].name} keys share one count (an account): 3 requests on one lowered the other's Remaining by 3 more (${before.remaining} → ${after.remaining})`
        : `the other key's Remaining went from ${before.remaining} to ${after.remaining} around 3 requests on a second key`,
  );
  check.gist(fell === 1 ? 'per key' : fell === 4 ? 'per account' : 'unclear');
});

test(...rule('PLAN-ENTERPRISE', 'the quotas of an Enterprise key'), async ({ keys, check, target }) => {
  test.skip(target.keys.enterprise.length === 0, 'set PETSTORE_API_KEY_ENTERPRISE to run this');
  const exchange = await (await keys.common('enterprise')).listPets({ limit: 1 });
  const headers = readRateLimit(exchange.response.headers);
  check.observe(
    headers
      ? `an Enterprise key is limited to ${count(headers.limit)} requests per window (Remaining ${count(headers.remaining)}, Reset in ${headers.reset - Math.floor(target.clock.now() / 1000)} s)`
      : 'an Enterprise key carried no readable X-RateLimit-* headers',
  );
  check.gist(headers ? `${count(headers.limit)} per window` : 'no readable headers');
});

