/**
 * What a run adds to the target's store: every creation answered 201, counted by the status the new animal
 * holds. A store the suite certifies again and again keeps what each run added (a staging is rarely emptied),
 * so the report says how many, by status (specs/reporter/created-pets.ts).
 */
import type { Transport } from './exchange.ts';

/** The annotation a test adds when it created animals: the counts by status, as JSON ({"sold": 3}). */
export const CREATED_PETS = 'created-pets';

/** Created animals of one test, by status ("no status" when neither answer nor request named one). */
export type CreatedPets = Map<string, number>;

const NO_STATUS = 'no status';

/** Counts into `tally` each POST /pets the target answered 201. */
export function countingCreations(transport: Transport, tally: CreatedPets): Transport {
  return {
    async send(request) {
      const response = await transport.send(request);
      if (request.method === 'POST' && response.status === 201 && new URL(request.url).pathname.endsWith('/pets')) {
        const status = statusIn(response.body) ?? statusIn(request.body) ?? NO_STATUS;
        tally.set(status, (tally.get(status) ?? 0) + 1);
      }
      return response;
    },
  };
}

export function createdAnnotation(tally: CreatedPets): { type: string; description: string } | undefined {
  return tally.size === 0 ? undefined : { type: CREATED_PETS, description: JSON.stringify(Object.fromEntries(tally)) };
}

function statusIn(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const status = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as { status?: unknown }).status : undefined;
    return typeof status === 'string' ? status.slice(0, 40) : undefined;
  } catch {
    return undefined;
  }
}
