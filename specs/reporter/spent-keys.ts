/**
 * The keys that came to the run spent, or stayed banned longer than a test could wait (specs/support/spent-keys.ts),
 * gathered from the tests' annotations into one note of the verdict each: which keys, and when to run again (once
 * the last of them is back).
 */
import { BANNED_KEY, SPENT_KEY } from '../support/spent-keys.ts';

type Annotation = { type: string; description?: string };

export function spentKeysNote(annotations: readonly Annotation[]): string | undefined {
  const back = latestBackByKey(annotations, SPENT_KEY);
  if (!back) return undefined;
  return `Spent before this run (their daily quota used up, so the tests that need them could not check everything, and no rule failed for it): ${back.keys}. Run again after ${back.last}.`;
}

export function bannedKeysNote(annotations: readonly Annotation[]): string | undefined {
  const back = latestBackByKey(annotations, BANNED_KEY);
  if (!back) return undefined;
  return `Banned for longer than a test could wait (a temporary ban, not a day used up, so the tests that need them could not check everything, and no rule failed for it): ${back.keys}. Run again after ${back.last}.`;
}

function latestBackByKey(annotations: readonly Annotation[], type: string): { keys: string; last: string } | undefined {
  const backByKey = new Map<string, string>();
  for (const annotation of annotations) {
    if (annotation.type !== type || !annotation.description) continue;
    const [name, back] = annotation.description.split('|');
    if (!name || !back) continue;
    const known = backByKey.get(name);
    if (known === undefined || back > known) backByKey.set(name, back);
  }
  if (backByKey.size === 0) return undefined;
  const keys = [...backByKey].sort(([a], [b]) => a.localeCompare(b)).map(([name, back]) => `${name} (back ${back})`);
  return { keys: keys.join('; '), last: [...backByKey.values()].sort().at(-1)! };
}
