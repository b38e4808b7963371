/**
 * The keys that came to the run spent (specs/support/spent-keys.ts), gathered from the tests' annotations into
 * one note of the verdict: which keys, and when to run again (once the last of them is back).
 */
import { SPENT_KEY } from '../support/spent-keys.ts';

type Annotation = { type: string; description?: string };

export function spentKeysNote(annotations: readonly Annotation[]): string | undefined {
  const backByKey = new Map<string, string>();
  for (const annotation of annotations) {
    if (annotation.type !== SPENT_KEY || !annotation.description) continue;
    const [name, back] = annotation.description.split('|');
    if (!name || !back) continue;
    const known = backByKey.get(name);
    if (known === undefined || back > known) backByKey.set(name, back);
  }
  if (backByKey.size === 0) return undefined;
  const keys = [...backByKey].sort(([a], [b]) => a.localeCompare(b)).map(([name, back]) => `${name} (back ${back})`);
  const last = [...backByKey.values()].sort().at(-1)!;
  return `Spent before this run (their daily quota used up, so the tests that need them could not check everything, and no rule failed for it): ${keys.join('; ')}. Run again after ${last}.`;
}
