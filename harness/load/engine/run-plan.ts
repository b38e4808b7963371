/**
 * A load scenario as Locust's own test: locustfile.py (a file of its own beside this one, the same for every
 * generator) and the run plan it reads, petstore-run.json: keys by plan and number, never by value (each
 * generator reads the keys from PETSTORE_API_KEY_<PLAN> at run time), and the client both engines share
 * (backoff from lib/backoff.ts, the requests of request-builder.ts), so the Python holds no second copy.
 */
import { fileURLToPath } from 'node:url';
import { DEFAULT_BACKOFF } from '../../../lib/backoff.ts';
import { RUN_SLACK_MS } from '../../../lib/rate-limiter/account.ts';
import { LOAD_REQUESTS, type PlannedRequest } from '../request-builder.ts';
import type { Behaviour, LoadOperation, Mix } from '../scenario.ts';

export const RUN_PLAN_FILE = 'petstore-run.json';
export const LOCUSTFILE = 'locustfile.py';
/** Written by Locust's master (or a lone generator) beside locustfile.py. */
export const RESULT_FILE = 'petstore-result.json';
export const LOCUSTFILE_SOURCE = fileURLToPath(new URL(LOCUSTFILE, import.meta.url));

/**
 * Keys sent alike, with consecutive numbers of one plan: `count` keys from `keyNumber` on, which are the keys
 * `index` to `index + count - 1` of the scenario (and of the result). Thousands of keys stay a few lines.
 */
export interface RunPlanKey {
  /** The first key's. */
  label: string;
  plan: string;
  keyNumber: number;
  count: number;
  index: number;
  keyVariable: string;
  /** Requests per second over all generators; null for "max". */
  perSecond: number | null;
  behaviour: Behaviour;
  mix: Mix;
}

export interface ClientPlan {
  backoff: { baseMs: number; capMs: number };
  /** An admission answered more than this (ms) before the Reset it names is summed as firm (RUN_SLACK_MS). */
  firmSlackMs: number;
  /** In the order the mix's weights are laid out on [0, 1). */
  operations: Record<LoadOperation, PlannedRequest>;
}

/** What the generators need, and what reading their result back needs; it holds no key. */
export interface RunPlan {
  scenario: string;
  /** The target with its /v1 path: Locust's --host. */
  baseUrl: string;
  durationS: number;
  /** Locust users per key: each holds its own connection. */
  usersPerKey: number;
  timeScale: number;
  seed: number | null;
  client: ClientPlan;
  keys: RunPlanKey[];
  /**
   * Every generator ran on the machine that wrote this plan (the load command started them): they timed their answers
   * on one clock. Absent from an export, whose generators may run on several machines (generatorSkewMs).
   */
  oneMachine?: true;
}

export function clientPlan(): ClientPlan {
  return { backoff: { baseMs: DEFAULT_BACKOFF.baseMs, capMs: DEFAULT_BACKOFF.capMs }, firmSlackMs: RUN_SLACK_MS, operations: LOAD_REQUESTS };
}

/** How many keys a run plan names, over all its groups. */
export function keyCount(plan: Pick<RunPlan, 'keys'>): number {
  return plan.keys.reduce((sum, group) => sum + group.count, 0);
}
