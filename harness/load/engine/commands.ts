/**
 * The Locust command lines of a run plan: what the local run starts (with a few options of its own for one
 * machine) and what the export's README and the how-to tell people to type on many machines, from one place.
 */
import { keyVariable } from '../../../lib/keys.ts';
import type { PlanId } from '../../../lib/plans.ts';
import { keyCount, LOCUSTFILE, type RunPlan } from './run-plan.ts';

/**
 * Seconds the master runs past the scenario's duration: its users stop themselves at the duration after they
 * start, and starting thousands of them takes Locust a second or more per few thousand.
 */
const RUN_TIME_MARGIN_S = 1;
const USERS_STARTED_PER_MARGIN_SECOND = 1_000;

export interface LocustCommands {
  master: string[];
  worker: string[];
  /** The key variables each worker needs in its environment. */
  keyVariables: string[];
  users: number;
}

export function locustCommands(plan: RunPlan, workers: number, locustfile = LOCUSTFILE): LocustCommands {
  const users = plan.usersPerKey * keyCount(plan);
  return {
    users,
    master: ['-f', locustfile, '--master', '--headless', '--expect-workers', String(workers), '-u', String(users), '-r', String(users), '-t', `${Math.ceil(plan.durationS) + RUN_TIME_MARGIN_S + Math.floor(users / USERS_STARTED_PER_MARGIN_SECOND)}s`, '--stop-timeout', '5', '-H', plan.baseUrl, '--only-summary'],
    worker: ['-f', locustfile, '--worker'],
    keyVariables: [...new Set(plan.keys.map((key) => keyVariable(key.plan as PlanId)))],
  };
}

/** The two commands as a person types them, on the master and on each worker machine. */
export function locustCommandText(plan: RunPlan, workers: number): { master: string; worker: string } {
  const commands = locustCommands(plan, workers);
  return {
    master: ['locust', ...commands.master].join(' '),
    worker: [...commands.keyVariables.map((variable) => `${variable}=...`), 'locust', ...commands.worker, '--master-host', '<master address>'].join(' '),
  };
}
