/**
 * What a rule broken makes of a verdict, from the rule's level alone, for every part that judges (suite, load,
 * recorded traffic): a MUST broken fails, a SHOULD broken warns, and a GAP is only ever observed. Of several rules
 * broken at once, the strictest level decides.
 */
import { ruleById, type Level } from '../rules.ts';

export type BreachStatus = 'fail' | 'warn' | 'observed';

const BY_LEVEL: Readonly<Record<Level, BreachStatus>> = { MUST: 'fail', SHOULD: 'warn', GAP: 'observed' };
const STRICTEST_FIRST: readonly BreachStatus[] = ['fail', 'warn', 'observed'];

export function breachStatus(ruleIds: readonly string[]): BreachStatus {
  const statuses = new Set(ruleIds.map((id) => BY_LEVEL[ruleById(id).level]));
  return STRICTEST_FIRST.find((status) => statuses.has(status)) ?? 'observed';
}
