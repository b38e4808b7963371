/**
 * ERR-4's false-warning rate, measured, stalls included: clients that back off correctly, simulated through the
 * refusal plan's runs of refusals in a row, are warned "no backoff" only when their runs together look flat
 * (harness/judge/backoff-growth.ts). The rate must stay below 1 in 10,000, on a quiet machine and when a stall (a
 * loaded machine running a timer late: seconds of the plan at a fast clock) stretches one of the client's waits.
 * A client that waits each Retry-After and no more is still caught every time, whichever MAX_STALLS of its waits
 * stalls stretch, by however much. Seeded, so the figures are the same on every run.
 */
import { expect, test } from '@playwright/test';
import { CONSECUTIVE, CONSECUTIVE_SECONDS, CONSECUTIVE_STRETCHES } from '../../harness/client-rules/refusal-plan.ts';
import { BackoffGrowth, MAX_STALLS } from '../../harness/judge/backoff-growth.ts';
import { ClientRuleJudge, GROWTH_MARGIN_MS } from '../../harness/judge/client-rule-judge.ts';
import { RuleTallies } from '../../harness/judge/rule-tally.ts';
import { backoffDelayMs } from '../../lib/backoff.ts';
import { seededRandom } from '../../lib/random.ts';

const RETRY_AFTER_MS = CONSECUTIVE_SECONDS * 1000;
/** What a client's timers wander by at --clock-rate 20 on a busy machine: 20 real ms, 400 of the plan's. */
const TIMER_WANDER_MS = 400;
/** The longest stall simulated: 1.5 real seconds at --clock-rate 20 (the matrix saw 0.4). */
const LONGEST_STALL_MS = 30_000;

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

/** Where stalls stretch a client's waits: [run, retry, ms] each. */
type Stall = readonly [number, number, number];

/** The plan's runs of one client: each retry's wait, as the client's policy draws it and its timers wander, then stalled. */
function planWaits(policy: Policy, random: () => number, stalls: readonly Stall[]): number[][] {
  const runs = Array.from({ length: CONSECUTIVE_STRETCHES }, () => Array.from({ length: CONSECUTIVE }, (_, n) => policy(n, random) + random() * TIMER_WANDER_MS));
  for (const [run, retry, ms] of stalls) (runs[run] as number[])[retry] = ((runs[run] as number[])[retry] as number) + ms;
  return runs;
}

/** One stall, of up to LONGEST_STALL_MS, at any wait of any run. */
function oneStall(random: () => number): Stall[] {
  return [[Math.floor(random() * CONSECUTIVE_STRETCHES), Math.floor(random() * CONSECUTIVE), random() * LONGEST_STALL_MS]];
}

/** Whether the judge itself warns ERR-4 on a client that waited `runs` (each a run of refusals in a row). */
function judgeWarns(runs: readonly (readonly number[])[]): boolean {
  const tallies = new RuleTallies();
  const judge = new ClientRuleJudge(tallies, 0);
  let now = 0;
  let number = 0;
  const send = (status: number): void => {
    judge.add({ number: ++number, key: 'client', method: 'GET', path: '/pets', sentAt: now, answeredAt: now + 5, status, retryAfter: status === 429 ? String(CONSECUTIVE_SECONDS) : undefined, date: undefined });
    now += 5;
  };
  for (const waits of runs) {
    send(200);
    for (const wait of waits) {
      send(429);
      now += wait;
    }
    send(200);
    now += 1_000;
  }
  judge.finish();
  return (tallies.get('ERR-4')?.violations ?? 0) > 0;
}

/** How often a client's runs together look flat, by the judge's own pooling (fast enough for many trials). */
function flatRate(policy: Policy, trials: number, seed: number, stalled: boolean): number {
  const random = seededRandom(seed);
  let flat = 0;
  for (let trial = 0; trial < trials; trial++) {
    const growth = new BackoffGrowth();
    for (const waits of planWaits(policy, random, stalled ? oneStall(random) : [])) growth.add(waits.map((wait) => Math.max(0, wait - RETRY_AFTER_MS)));
    if (!growth.grows(GROWTH_MARGIN_MS)) flat++;
  }
  return flat / trials;
}

for (const [name, policy] of Object.entries(POLICIES)) {
  test(`ERR-4 a correct ${name} client is falsely warned "no backoff" in under 1 in 10,000 runs of the plan, a stall or none`, () => {
    for (const stalled of [false, true]) {
      const rate = flatRate(policy, 100_000, stalled ? 17 : 7, stalled);
      expect(rate, `${stalled ? 'with a stall' : 'on a quiet machine'}: flat in ${(rate * 100).toFixed(4)}% of plans`).toBeLessThan(1e-4);
    }
    // And the judge itself, as certify-client judges it: not one false warning in 2,000 stalled clients.
    const random = seededRandom(11);
    for (let trial = 0; trial < 2_000; trial++) expect(judgeWarns(planWaits(policy, random, oneStall(random)))).toBe(false);
  });
}

test('ERR-4 a stall in a correct client\'s first retries does not read as growth missing', () => {
  const random = seededRandom(19);
  for (const [name, policy] of Object.entries(POLICIES)) {
    // Each run's first wait stalled by the longest stall: the first halves are as long as they can be made.
    const stalls = Array.from({ length: MAX_STALLS }, (_, run): Stall => [run, 0, LONGEST_STALL_MS]);
    for (let trial = 0; trial < 200; trial++) expect(judgeWarns(planWaits(policy, random, stalls)), name).toBe(false);
  }
});

test('ERR-4 a client that waits each Retry-After and no more is warned "no backoff" in every run of the plan, whichever of its waits stalls stretch', () => {
  const random = seededRandom(13);
  for (let trial = 0; trial < 2_000; trial++) {
    // Up to MAX_STALLS stalls, at any waits, by up to the longest stall: the matrix's got "grew" by one of 8 s.
    const stalls = Array.from({ length: trial % (MAX_STALLS + 1) }, () => (oneStall(random)[0] as Stall));
    expect(judgeWarns(planWaits(NO_BACKOFF, random, stalls))).toBe(true);
  }
  // The stall the matrix saw, in the later half of one run of three: without pooling it passed got.
  expect(judgeWarns(planWaits(NO_BACKOFF, random, [[2, 6, 8_000]]))).toBe(true);
  // Both stalls the key tolerates in its later halves, each as long as a backoff's whole run.
  expect(judgeWarns(planWaits(NO_BACKOFF, random, [[0, 7, LONGEST_STALL_MS], [1, 7, LONGEST_STALL_MS]]))).toBe(true);
});
