/**
 * Runs a load client against a limiter on a virtual clock: no sockets, no waiting. The client is the real
 * arrival schedule and client behaviour of harness/load; the target is a RateLimiter as the reference server
 * uses it. What comes out is the list of observations the verdicts read, exactly as a live run records them.
 */
import { plans, type PlanId } from '../../../lib/plans.ts';
import type { RateLimiter } from '../../../reference-server/limiter.ts';
import { ArrivalSchedule } from '../../../harness/load/arrival-schedule.ts';
import { KeyDriver } from '../../../harness/load/client-behaviour.ts';
import { LatencyRecorder } from '../../../harness/load/latency.ts';
import { outcomeOf, type Observation } from '../../../harness/load/observation.ts';
import { seededRandom } from '../../../lib/random.ts';
import type { KeyResult } from '../../../harness/load/runner.ts';
import { DEFAULT_MIX, type Behaviour } from '../../../harness/load/scenario.ts';

export interface Simulation {
  limiter: RateLimiter;
  plan: PlanId;
  behaviour: Behaviour;
  perSecond: number;
  durationMs: number;
  /** Unix ms at the start; a whole second plus a fraction by default, like any real start. */
  startEpochMs?: number;
  latencyMs?: number;
  stepMs?: number;
  /** The client stalls (a busy machine) from this time for `stallMs`, then catches up with a burst. */
  stallAtMs?: number;
  stallMs?: number;
}

export const SIMULATION_START = 1_800_000_000_347;

export function simulate({ limiter, plan, behaviour, perSecond, durationMs, startEpochMs = SIMULATION_START, latencyMs = 2, stepMs = 1, stallAtMs = Infinity, stallMs = 0 }: Simulation): KeyResult {
  const driver = new KeyDriver(behaviour, new ArrivalSchedule(perSecond, 0, durationMs), undefined, seededRandom(7));
  const quota = plans[plan].documented ?? plans[plan].referenceDefault;
  const inFlight: Observation[] = [];
  const observations: Observation[] = [];
  for (let now = 0; now <= durationMs + 10 * latencyMs; now += stepMs) {
    for (let index = inFlight.findIndex((o) => o.doneAt <= now); index !== -1; index = inFlight.findIndex((o) => o.doneAt <= now)) {
      const [done] = inFlight.splice(index, 1) as [Observation];
      observations.push(done);
      driver.settled(done);
    }
    if (now >= stallAtMs && now < stallAtMs + stallMs) continue;
    for (const dispatch of driver.due(now, startEpochMs)) {
      const decision = limiter.take('key', quota, startEpochMs + now);
      const status = decision.admitted ? 200 : 429;
      inFlight.push({
        operation: 'list',
        intendedAt: dispatch.intendedAt,
        sentAt: now,
        doneAt: now + latencyMs,
        status,
        outcome: outcomeOf(status),
        limit: decision.limit,
        remaining: decision.remaining,
        reset: decision.reset,
        retryAfterMs: decision.retryAfter === undefined ? undefined : decision.retryAfter * 1000,
        retry: dispatch.retry,
        error: undefined,
      });
    }
  }
  return keyResultOf(observations, plan, behaviour, perSecond, driver.heldBack);
}

export function keyResultOf(observations: Observation[], plan: PlanId, behaviour: Behaviour, perSecond: number, heldBack = 0): KeyResult {
  const refusalFindings: KeyResult['refusalFindings'] = {};
  const refusals = observations.filter((o) => o.outcome === 'refused');
  const withoutRetryAfter = refusals.filter((o) => o.retryAfterMs === undefined);
  if (withoutRetryAfter.length) refusalFindings['RL-1'] = { count: withoutRetryAfter.length, example: '429 without a Retry-After header' };
  return {
    spec: { label: `${plan} #1 ${behaviour}`, plan, keyNumber: 1, rate: { kind: 'perSecond', perSecond }, behaviour, mix: DEFAULT_MIX },
    perSecond,
    observations,
    sent: observations.length,
    admitted: observations.filter((o) => o.outcome === 'admitted').length,
    refused: refusals.length,
    errors: 0,
    heldBack,
    statusCounts: {},
    latency: { admitted: new LatencyRecorder().summary(), refused: new LatencyRecorder().summary() },
    refusalFindings,
    withoutRateLimitHeaders: 0,
    errorExamples: [],
  };
}
