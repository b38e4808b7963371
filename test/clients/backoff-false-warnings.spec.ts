/**
 * ERR-4's false-warning rate, measured: clients that back off correctly, simulated through the refusal plan's
 * runs of refusals in a row and judged by the judge itself (harness/judge/client-rule-judge.ts), are warned
 * "no backoff" only when every run of theirs looks flat by chance. A run of eight jittered waits after a 5 s
 * Retry-After looks flat now and then; the plan gives CONSECUTIVE_STRETCHES runs, and the rate at which all of
 * them look flat must stay below 1 in 10,000. A client that waits each Retry-After and no more is still caught
 * every time. Seeded, so the figures are the same on every run.
 */
import { expect, test } from '@playwright/test';
import { growthMarginAt } from '../../harness/client-rules/client-certificate.ts';
import { CONSECUTIVE, CONSECUTIVE_SECONDS, CONSECUTIVE_STRETCHES } from '../../harness/client-rules/refusal-plan.ts';
import { ClientRuleJudge } from '../../harness/judge/client-rule-judge.ts';
import { RuleTallies } from '../../harness/judge/rule-tally.ts';
import { backoffDelayMs } from '../../lib/backoff.ts';
import { seededRandom } from '../../lib/random.ts';

const RETRY_AFTER_MS = CONSECUTIVE_SECONDS * 1000;
/** What a client's timers wander by at --clock-rate 20 on a busy machine: 20 real ms, 400 of the plan's. */
const TIMER_WANDER_MS = 400;
/** As certify-client judges at the client matrix's rate, where the margin a run must grow by is widest. */
const GROWTH_MARGIN_MS = growthMarginAt(20);

/** The wait before retry n (0 for the first) after a 429 asking RETRY_AFTER_MS. */
type Policy = (n: number, random: () => number) => number;

const POLICIES: Record<string, Policy> = {
  // AWS's "full jitter", floored at Retry-After: a uniform draw up to 1 s · 2^n.
  'full jitter': (n, random) => Math.max(RETRY_AFTER_MS, random() * 1000 * 2 ** n),
  // "Equal jitter": half the ceiling, plus a uniform draw up to the other half.
  'equal jitter': (n, random) => Math.max(RETRY_AFTER_MS, 500 * 2 ** n + random() * 500 * 2 ** n),
  // This project's own (lib/backoff.ts): Retry-After plus full jitter from 250 ms.
  'lib/backoff.ts': (n, random) => backoffDelayMs(n + 1, RETRY_AFTER_MS, undefined, random),
};
const NO_BACKOFF: Policy = () => RETRY_AFTER_MS;

/** Whether the judge warns ERR-4 on a client that meets `runs` runs of CONSECUTIVE refusals in a row. */
function warned(policy: Policy, runs: number, random: () => number): boolean {
  const tallies = new RuleTallies();
  const judge = new ClientRuleJudge(tallies, 0, undefined, false, GROWTH_MARGIN_MS);
  let now = 0;
  let number = 0;
  const send = (status: number): void => {
    judge.add({ number: ++number, key: 'client', method: 'GET', path: '/pets', sentAt: now, answeredAt: now + 5, status, retryAfter: status === 429 ? String(CONSECUTIVE_SECONDS) : undefined, date: undefined });
    now += 5;
  };
  for (let run = 0; run < runs; run++) {
    send(200);
    for (let n = 0; n < CONSECUTIVE; n++) {
      send(429);
      now += policy(n, random) + random() * TIMER_WANDER_MS;
    }
    send(200);
    now += 1_000;
  }
  judge.finish();
  return (tallies.get('ERR-4')?.violations ?? 0) > 0;
}

function rate(policy: Policy, runs: number, trials: number, seed: number): number {
  const random = seededRandom(seed);
  let warnings = 0;
  for (let trial = 0; trial < trials; trial++) if (warned(policy, runs, random)) warnings++;
  return warnings / trials;
}

for (const [name, policy] of Object.entries(POLICIES)) {
  test(`ERR-4 a correct ${name} client is falsely warned "no backoff" in under 1 in 10,000 runs of the plan`, () => {
    // One run of eight, measured; the plan's runs are drawn independently, so all of them look flat at its power.
    const oneRun = rate(policy, 1, 40_000, 7);
    expect(oneRun, `one run of ${CONSECUTIVE} looked flat in ${(oneRun * 100).toFixed(3)}% of draws`).toBeLessThan(0.02);
    expect(oneRun ** CONSECUTIVE_STRETCHES).toBeLessThan(1e-4);
    // And the judge over the whole plan's runs, as certify-client judges it: not one false warning in 5,000 clients.
    expect(rate(policy, CONSECUTIVE_STRETCHES, 5_000, 11)).toBe(0);
  });
}

test('ERR-4 a client that waits each Retry-After and no more is warned "no backoff" in every run of the plan', () => {
  expect(rate(NO_BACKOFF, CONSECUTIVE_STRETCHES, 2_000, 13)).toBe(1);
});
