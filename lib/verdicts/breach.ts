/**
 * What several rules broken at once make of a verdict, for every part that judges (suite, load, recorded
 * traffic): each rule's level gives its own (lib/verdicts/level.ts), and the strictest decides.
 */
import { ruleById } from '../rules.ts';
import { breachVerdict, type BreachVerdict } from './level.ts';

const STRICTEST_FIRST: readonly BreachVerdict[] = ['fail', 'warn', 'observed'];

export function breachStatus(ruleIds: readonly string[]): BreachVerdict {
  const statuses = new Set(ruleIds.map((id) => breachVerdict(ruleById(id).level)));
  return STRICTEST_FIRST.find((status) => statuses.has(status)) ?? 'observed';
}
