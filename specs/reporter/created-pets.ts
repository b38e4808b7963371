/**
 * What the run added to the target's store (specs/support/created-pets.ts), summed over the tests' annotations
 * into one note of the verdict: a store certified again and again keeps it.
 */
import { CREATED_PETS } from '../support/created-pets.ts';

type Annotation = { type: string; description?: string };

export function createdPetsNote(annotations: readonly Annotation[]): string | undefined {
  const byStatus = new Map<string, number>();
  for (const annotation of annotations) {
    if (annotation.type !== CREATED_PETS || !annotation.description) continue;
    for (const [status, count] of Object.entries(JSON.parse(annotation.description) as Record<string, number>)) byStatus.set(status, (byStatus.get(status) ?? 0) + count);
  }
  const total = [...byStatus.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return undefined;
  const parts = [...byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${count} ${status}`);
  return `This run added ${total} animal${total === 1 ? '' : 's'} to the target's store (${parts.join(', ')}); a store that is never emptied keeps them.`;
}
