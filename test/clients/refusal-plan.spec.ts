/**
 * The refusing server's plan (harness/client-rules/refusal-plan.ts): the same seed gives the same plan; every
 * case the client rules are about comes, in order; a request while refused is refused with what is left of the
 * wait, and the third bans the key; an HTTP-date names a whole second at least the wait away.
 */
import { expect, test } from '@playwright/test';
import { BAN_AFTER, BAN_SECONDS, CONSECUTIVE, CONSECUTIVE_STRETCHES, KeyPlan, LONG_SECONDS, PLANNED, planSteps } from '../../harness/client-rules/refusal-plan.ts';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0, 400);

/** A client that waits out every refusal exactly: the plan's answers in order, with the time it took. */
function patientWalk(seed: number): Array<{ scenario: string | undefined; retryAfter: string }> {
  const plan = new KeyPlan(planSteps(seed));
  const walk: Array<{ scenario: string | undefined; retryAfter: string }> = [];
  let now = T0;
  for (let i = 0; i < 80; i++) {
    const answer = plan.answer(now);
    walk.push({ scenario: answer.scenario, retryAfter: answer.retryAfterHeader ?? String(answer.retryAfterSeconds) });
    now = Math.max(now + 100, answer.until);
  }
  return walk;
}

test('the refusal plan is the same for the same seed, and takes a patient client through every case in order', () => {
  expect(patientWalk(3)).toEqual(patientWalk(3));
  const scenarios = patientWalk(1).flatMap((step) => (step.scenario ? [step.scenario] : []));
  expect([...new Set(scenarios)]).toEqual([...PLANNED]);
  expect(scenarios.filter((scenario) => scenario === 'consecutive')).toHaveLength(CONSECUTIVE * CONSECUTIVE_STRETCHES);
  expect(patientWalk(1).find((step) => step.scenario === 'long')?.retryAfter).toBe(String(LONG_SECONDS));
  expect(patientWalk(1).find((step) => step.scenario === 'zero')?.retryAfter).toBe('0');
  expect(patientWalk(1).find((step) => step.scenario === 'http-date')?.retryAfter).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
});

test('a request while refused is refused with what is left of the wait, and hammering bans the key for a while', () => {
  const plan = new KeyPlan(planSteps(1));
  let now = T0;
  let answer = plan.answer(now);
  while (answer.admitted) answer = plan.answer((now += 100));
  expect(answer.scenario).toBe('delta-seconds');
  const until = answer.until;
  const early = plan.answer(now + 500);
  expect(early).toMatchObject({ admitted: false, scenario: 'still-refused', retryAfterSeconds: Math.ceil((until - now - 500) / 1000), banned: false });
  for (let i = 2; i < BAN_AFTER; i++) plan.answer(now + 500 + i);
  const ban = plan.answer(now + 600);
  expect(ban).toMatchObject({ admitted: false, scenario: 'ban', retryAfterSeconds: BAN_SECONDS, banned: true });
  expect(plan.answer(ban.until - 1)).toMatchObject({ scenario: 'ban', banned: true });
  expect(plan.answer(ban.until).banned).toBe(false);
});

test('an HTTP-date Retry-After names a whole second at least its wait away', () => {
  const dated = new KeyPlan(planSteps(1));
  let at = T0;
  let answer = dated.answer(at);
  while (answer.scenario !== 'http-date') {
    at = Math.max(at + 100, answer.until);
    answer = dated.answer(at);
  }
  expect(Date.parse(answer.retryAfterHeader ?? '')).toBe(answer.until);
  expect(answer.until % 1000).toBe(0);
  expect(answer.until - at).toBeGreaterThanOrEqual(3_000);
});
