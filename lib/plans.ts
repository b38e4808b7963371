import { readFixtureYaml } from './fixtures.ts';

export const PLAN_IDS = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Quota {
  perMinute: number;
  perDay: number;
}

export interface Plan {
  id: PlanId;
  name: string;
  /** The documented quota; undefined for a plan whose quota is "custom" (Enterprise). */
  documented: Quota | undefined;
  /** The quota the reference server applies when configuration does not say otherwise. */
  referenceDefault: Quota;
}

interface PlanEntry {
  name: string;
  perMinute?: number;
  perDay?: number;
  custom?: boolean;
  referenceDefault?: Quota;
}

function load(): Record<PlanId, Plan> {
  const raw = readFixtureYaml('plans.yaml') as { plans: Record<string, PlanEntry> };
  const plans = {} as Record<PlanId, Plan>;
  for (const id of PLAN_IDS) {
    const entry = raw.plans[id];
    if (!entry) throw new Error(`fixtures/plans.yaml: plan "${id}" is missing`);
    const documented =
      entry.custom === true ? undefined : { perMinute: must(entry.perMinute, id), perDay: must(entry.perDay, id) };
    const referenceDefault = documented ?? entry.referenceDefault;
    if (!referenceDefault) throw new Error(`fixtures/plans.yaml: custom plan "${id}" needs a referenceDefault`);
    plans[id] = { id, name: entry.name, documented, referenceDefault };
  }
  return plans;
}

function must(value: number | undefined, id: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(`fixtures/plans.yaml: plan "${id}" needs whole-number perMinute and perDay quotas`);
  }
  return value;
}

export const plans: Readonly<Record<PlanId, Plan>> = load();

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** The plan ids in a clear error message, for input that named an unknown plan. */
export function parsePlanId(value: string): PlanId {
  const id = value.trim().toLowerCase();
  if (!isPlanId(id)) throw new Error(`unknown plan "${value}"; expected one of ${PLAN_IDS.join(', ')}`);
  return id;
}
