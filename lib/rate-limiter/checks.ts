/**
 * The rate-limit checks as small named units: each with the rules it serves, what it needs of the window
 * accountant (window-accountant.ts), and what it holds the target to. The load harness's verdicts and the judge's
 * contradictions name their check here, so one list says which rule each serves; an input that lacks what a check
 * needs (a generator's per-window sums carry no order of answers) leaves it "not checked", saying which need.
 */
import type { PlanId } from '../plans.ts';

export type Need =
  /** How many were admitted and refused under each Limit and Reset, well before that Reset: sums carry this. */
  | 'firm counts per window'
  /** Answers the target decided one after the other (order.ts), each with its headers. */
  | 'pairs decided one after the other'
  /** The order of a key's requests: which came before a window's first refusal, which after a 429 was waited out. */
  | 'per-request order'
  /** Each refusal with its own headers. */
  | 'refusals with their headers'
  /** The kind of limiter the answers show (recognise.ts). */
  | 'the kind of limiter';

export interface RateLimitCheck {
  name: string;
  /** Rule IDs; 'PLAN' is the key's plan's quota rule (PLAN-FREE, ...). */
  rules: readonly string[];
  needs: readonly Need[];
  judges: string;
}

const CHECKS = [
  { name: 'minute-max', rules: ['PLAN'], needs: ['firm counts per window'], judges: 'no window admits more than its limit' },
  { name: 'first-refusal', rules: ['PLAN', 'RL-1'], needs: ['per-request order'], judges: "a window seen from its start refuses only once its limit was admitted" },
  { name: 'daily-quota', rules: ['PLAN'], needs: ['firm counts per window'], judges: 'no day admits more than its quota' },
  { name: 'retry-after-admitted', rules: ['RL-3'], needs: ['per-request order'], judges: 'a request sent once a 429\'s Retry-After passed is admitted' },
  { name: 'remaining-steps', rules: ['RL-6'], needs: ['pairs decided one after the other', 'the kind of limiter'], judges: 'Remaining falls by one per admission, or rises only as the quota comes back' },
  { name: 'reset-stable', rules: ['RL-7'], needs: ['pairs decided one after the other'], judges: 'Reset stays put, starts a new window once it came, or moves to when a bucket is full again' },
  { name: 'refusal-headers', rules: ['RL-1', 'RL-2', 'RL-4'], needs: ['refusals with their headers'], judges: 'every 429 carries the rate-limit headers and a Retry-After in seconds or an HTTP-date' },
  { name: 'refusal-says-left', rules: ['RL-6'], needs: ['refusals with their headers'], judges: 'a 429 does not say requests are left in the window it names (unless it asks for a wait longer than a window)' },
  { name: 'limiter-kind', rules: ['RL-GAP-2'], needs: ['pairs decided one after the other'], judges: 'the kind of limiter, observed' },
] as const satisfies readonly RateLimitCheck[];

export type CheckName = (typeof CHECKS)[number]['name'];

export function checkNamed(name: CheckName): RateLimitCheck {
  return CHECKS.find((check) => check.name === name)!;
}

/** The rules a check serves for a key of `plan` ('PLAN' made the plan's own rule). */
export function rulesOf(name: CheckName, plan?: PlanId): string[] {
  return checkNamed(name).rules.map((rule) => (rule === 'PLAN' ? `PLAN-${(plan ?? 'free').toUpperCase()}` : rule));
}

/** Why the check cannot be judged on input that carries only `carried`, or undefined when it can. */
export function unmetNeeds(name: CheckName, carried: ReadonlySet<Need>, input: string): string | undefined {
  const missing = checkNamed(name).needs.filter((need) => !carried.has(need));
  return missing.length === 0 ? undefined : `${name} needs ${missing.join(' and ')}, not in ${input}`;
}
