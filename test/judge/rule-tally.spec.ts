/**
 * The tallies name each rule's keys exactly: a key is added to a rule's keys only where it may be missing, and a rule
 * judged on fewer keys than the capture holds still lists only its own, whatever order rules and keys come in.
 */
import { expect, test } from '@playwright/test';
import { RuleTallies } from '../../harness/judge/rule-tally.ts';

const none = { judged: [], violations: [], unchecked: [], observed: [] };
const keysOf = (tallies: RuleTallies, rule: string): string[] => [...(tallies.get(rule)?.keys ?? [])].sort();

test("each rule's keys are the keys it was judged on: not every key the capture holds, and each once", () => {
  const tallies = new RuleTallies();
  const exchange = { number: 1 };
  const evidence = (): { request: unknown; response: unknown } => ({ request: {}, response: {} });
  tallies.record({ ...none, judged: ['A', 'B'] }, 'k1', exchange, evidence);
  tallies.record({ ...none, judged: ['A'] }, 'k2', exchange, evidence);
  tallies.judged('C', 'k3', 1);
  tallies.record({ ...none, judged: ['A', 'B'] }, 'k1', exchange, evidence);
  tallies.record({ ...none, judged: ['A', 'C'] }, 'k3', exchange, evidence);
  tallies.record({ ...none, judged: ['B'] }, 'k2', exchange, evidence);
  tallies.judged('B', undefined);
  tallies.record({ ...none, judged: ['A', 'B', 'C'] }, 'k1', exchange, evidence);
  expect(keysOf(tallies, 'A')).toEqual(['k1', 'k2', 'k3']);
  expect(keysOf(tallies, 'B')).toEqual(['k1', 'k2']);
  expect(keysOf(tallies, 'C')).toEqual(['k1', 'k3']);
  expect(tallies.get('A')).toMatchObject({ exchanges: 5, windows: 0 });
  expect(tallies.get('B')).toMatchObject({ exchanges: 5 });
  expect(tallies.get('C')).toMatchObject({ exchanges: 2, windows: 1 });
});
