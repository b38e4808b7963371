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

/**
 * The Enterprise quota agreed for a key ("Enterprise quotas are agreed individually"), from
 * PETSTORE_ENTERPRISE_PER_MINUTE and PETSTORE_ENTERPRISE_PER_DAY: both or neither. The reference server reads
 * the same two variables, so one setting configures it and certifies against it.
 */
export function agreedEnterpriseQuota(env: Readonly<Record<string, string | undefined>>): Quota | undefined {
  const perMinute = env.PETSTORE_ENTERPRISE_PER_MINUTE?.trim();
  const perDay = env.PETSTORE_ENTERPRISE_PER_DAY?.trim();
  if (!perMinute && !perDay) return undefined;
  if (!perMinute || !perDay) throw new Error('PETSTORE_ENTERPRISE_PER_MINUTE and PETSTORE_ENTERPRISE_PER_DAY state the agreed Enterprise quota together; set both, or neither');
  const quota = { perMinute: agreedNumber('PETSTORE_ENTERPRISE_PER_MINUTE', perMinute), perDay: agreedNumber('PETSTORE_ENTERPRISE_PER_DAY', perDay) };
  if (quota.perDay < quota.perMinute) throw new Error(`the agreed Enterprise quota admits fewer requests a day (${perDay}) than a minute (${perMinute})`);
  return quota;
}

function agreedNumber(name: string, text: string): number {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new Error(`${name} must be a whole number of requests such as 5000, got "${text}"`);
  return Number(text);
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** The plan ids in a clear error message, for input that named an unknown plan. */
export function parsePlanId(value: string): PlanId {
  const id = value.trim().toLowerCase();
  if (!isPlanId(id)) throw new Error(`unknown plan "${value}"; expected one of ${PLAN_IDS.join(', ')}`);
  return id;
}
