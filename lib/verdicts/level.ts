/**
 * A rule's level, and the one place it becomes a verdict when the rule is broken: a MUST broken fails, a SHOULD
 * broken warns, and a GAP (the spec is silent) is only ever observed. The suite, the load harness, the judge and
 * the verdict model all ask here. A leaf: it imports nothing, so everything that judges can import it.
 */
export const LEVELS = ['MUST', 'SHOULD', 'GAP'] as const;
export type Level = (typeof LEVELS)[number];

export type BreachVerdict = 'fail' | 'warn' | 'observed';

const BY_LEVEL: Readonly<Record<Level, BreachVerdict>> = { MUST: 'fail', SHOULD: 'warn', GAP: 'observed' };

/** What breaking a rule of this level makes of its verdict. */
export function breachVerdict(level: Level): BreachVerdict {
  return BY_LEVEL[level];
}
