/**
 * Which keys a report shows one by one. A run of a few keys shows them all; a run of thousands shows the keys
 * whose checks did not all pass (the keys that broke a quota first), and sums the rest per plan, so the
 * report stays readable whatever the number of keys.
 */
import type { PlanId } from '../../lib/plans.ts';
import type { KeySummary } from './summary.ts';
import { STATUS_ORDER } from './verdicts/verdict.ts';

/** Up to this many keys, every key is shown. */
export const KEYS_SHOWN_ALL = 12;

export interface SummedKeys {
  plan: PlanId;
  planName: string;
  keys: number;
  sent: number;
  admitted: number;
  refused: number;
  errors: number;
  heldBack: number;
}

export function keyListing(keys: readonly KeySummary[]): { listed: KeySummary[]; summed: SummedKeys[] } {
  if (keys.length <= KEYS_SHOWN_ALL) return { listed: [...keys], summed: [] };
  const notice = (key: KeySummary): boolean => key.status === 'fail' || key.status === 'warn' || key.status === 'inconclusive';
  const listed = keys.filter(notice).sort((a, b) => STATUS_ORDER.indexOf(a.quotaStatus) - STATUS_ORDER.indexOf(b.quotaStatus) || STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status));
  const summed = new Map<PlanId, SummedKeys>();
  for (const key of keys) {
    if (notice(key)) continue;
    const sum = summed.get(key.plan) ?? { plan: key.plan, planName: key.planName, keys: 0, sent: 0, admitted: 0, refused: 0, errors: 0, heldBack: 0 };
    summed.set(key.plan, { ...sum, keys: sum.keys + 1, sent: sum.sent + key.sent, admitted: sum.admitted + key.admitted, refused: sum.refused + key.refused, errors: sum.errors + key.errors, heldBack: sum.heldBack + key.heldBack });
  }
  return { listed, summed: [...summed.values()] };
}
