/**
 * The keys that answered as another plan's (specs/support/misconfigured-keys.ts), gathered from the tests'
 * annotations into one note of the verdict: which variable to check, and what its key answered.
 */
import { keyVariable } from '../../lib/keys.ts';
import { plans } from '../../lib/plans.ts';
import { MISCONFIGURED_KEY, parseMisconfiguration, type Misconfiguration } from '../support/misconfigured-keys.ts';

type Annotation = { type: string; description?: string };

export function misconfiguredKeysNote(annotations: readonly Annotation[]): string | undefined {
  const byKey = new Map<string, Misconfiguration>();
  for (const annotation of annotations) {
    if (annotation.type !== MISCONFIGURED_KEY) continue;
    const found = parseMisconfiguration(annotation.description);
    if (found) byKey.set(found.name, found);
  }
  if (byKey.size === 0) return undefined;
  const keys = [...byKey.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, plan, answersAs, limit }) => `${name} answers as a ${plans[answersAs].name} key (X-RateLimit-Limit ${limit}), not as a ${plans[plan].name} key`);
  const variables = [...new Set([...byKey.values()].map(({ plan }) => keyVariable(plan)))].sort();
  return `Likely a configuration error (so the tests of those plans judged nothing on those keys, and no rule failed for it): ${keys.join('; ')}. Check ${variables.join(' and ')}, then run again.`;
}
