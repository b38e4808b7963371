/**
 * Arrival rates. A scenario gives each key a rate in requests per second of the target's real time, a
 * multiple of the plan's documented per-minute limit ("1.1x": just over it), or "max" (as fast as the
 * concurrency cap allows: a closed loop, for measuring the generator itself).
 */
import { plans, type PlanId } from '../../lib/plans.ts';
import { InputError } from './input-error.ts';

export type RateSpec = { kind: 'perSecond'; perSecond: number } | { kind: 'ofLimit'; multiple: number } | { kind: 'max' };

export function parseRate(text: string, what = 'rate'): RateSpec {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'max' || trimmed === 'unlimited') return { kind: 'max' };
  const multiple = /^(\d+(?:\.\d+)?|\.\d+)x$/.exec(trimmed);
  const value = Number(multiple ? multiple[1] : trimmed.replace(/\/s$/, ''));
  if (trimmed === '' || !Number.isFinite(value) || (!multiple && !/^(\d+(\.\d+)?|\.\d+)(\/s)?$/.test(trimmed))) {
    throw new InputError(`${what} "${text}" is not a rate; give requests per second (2, 0.5), a multiple of the plan's limit (1.1x) or max`);
  }
  if (value <= 0) throw new InputError(`${what} must be above 0, got "${text}"`);
  return multiple ? { kind: 'ofLimit', multiple: value } : { kind: 'perSecond', perSecond: value };
}

/**
 * Requests per real second for a plan at a time scale (N makes the target's minute N times shorter), or
 * undefined for "max". A multiple needs a documented limit, which Enterprise ("custom") does not have.
 */
export function perSecond(rate: RateSpec, plan: PlanId, timeScale: number, what = 'rate'): number | undefined {
  if (rate.kind === 'max') return undefined;
  if (rate.kind === 'perSecond') return rate.perSecond;
  const documented = plans[plan].documented;
  if (!documented) {
    throw new InputError(`${what}: ${plans[plan].name} has no documented limit to multiply ("custom" in the spec); give requests per second instead, e.g. 50`);
  }
  return (rate.multiple * documented.perMinute * timeScale) / 60;
}

export function describeRate(rate: RateSpec): string {
  if (rate.kind === 'max') return 'max';
  if (rate.kind === 'ofLimit') return `${rate.multiple}x the per-minute limit`;
  return `${rate.perSecond} req/s`;
}
