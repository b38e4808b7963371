/**
 * A target the suite's client talks to without a network: a clock that moves only when waited on or when a test
 * moves it, and a measuring client of the Free demo key over a transport the test writes.
 */
import { test } from '@playwright/test';
import { DEMO_KEYS } from '../../../lib/keys.ts';
import { Redactor } from '../../../lib/redact.ts';
import type { TargetClock } from '../../../lib/target-clock.ts';
import { PetStoreClient } from '../../../specs/support/client.ts';
import type { Transport } from '../../../specs/support/exchange.ts';
import { RuleJudge } from '../../../specs/support/judge.ts';

/** A clock at `startMs` that moves by what is slept on it, and by `advance`. */
export function steppedClock(startMs: number): { clock: TargetClock; advance: (ms: number) => number } {
  let now = startMs;
  const clock: TargetClock = { rate: 1, now: () => now, at: (ms) => ms, toRealMs: (ms) => ms, toTargetMs: (ms) => ms, sleep: async (ms) => void (now += ms) };
  return { clock, advance: (ms) => (now += ms) };
}

/** The suite's measuring client of a Free key, judging `rule`, with all the time it wants. */
export function measuringClient(transport: Transport, clock: TargetClock, rule: string): PetStoreClient {
  return new PetStoreClient({
    transport,
    baseUrl: 'http://127.0.0.1:9/v1',
    authorization: 'Bearer demo-free-1',
    plan: 'free',
    judge: new RuleJudge(test.info(), rule, new Redactor(DEMO_KEYS)),
    politeness: 'measure',
    timeLeftMs: () => Number.POSITIVE_INFINITY,
    clock,
  });
}
