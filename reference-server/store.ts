/**
 * The catalogue of animals. Ids are handed out in sequence from 1, so the id is also the position in `all`
 * and a lookup is one array index. Pets never change status (the spec shows no transitions), so a list per
 * status stays in creation order and a page of N pets with a status costs O(N), however large the store.
 */
import type { PetStatus } from './pet.ts';
import { PET_STATUSES, petJson, type NewPetInput, type Pet } from './pet.ts';

const DEMO_NAMES = ['Rex', 'Luna', 'Bubbles', 'Milo', 'Nala', 'Kiwi', 'Oscar', 'Pepper', 'Biscuit', 'Shadow'];
const DEMO_STATUSES: readonly PetStatus[] = ['available', 'available', 'pending', 'sold', 'available', 'pending'];

export class PetStore {
  private readonly all: Pet[] = [];
  private readonly byStatus = new Map<PetStatus, Pet[]>(PET_STATUSES.map((status) => [status, []]));
  /** Page bodies already built, by status ('' for none) and then by limit; emptied whenever a pet is added. */
  private readonly pages = new Map<PetStatus | '', Buffer[]>();

  get size(): number {
    return this.all.length;
  }

  add(input: NewPetInput): Pet {
    const pet: Pet = { id: this.all.length + 1, name: input.name, categoryId: input.categoryId, status: input.status };
    this.all.push(pet);
    this.byStatus.get(pet.status)?.push(pet);
    if (this.pages.size > 0) this.pages.clear();
    return pet;
  }

  /** Adds `count` demo pets with names, categories and statuses that cycle, so any count seeds quickly. */
  seed(count: number): void {
    for (let i = 0; i < count; i++) {
      this.add({
        name: DEMO_NAMES[i % DEMO_NAMES.length] ?? 'Rex',
        categoryId: 1 + (i % 5),
        status: DEMO_STATUSES[i % DEMO_STATUSES.length] ?? 'available',
      });
    }
  }

  /** The pet with this exact id; ids above 2^53 cannot be in this store, which hands them out from 1. */
  get(id: bigint): Pet | undefined {
    if (id < 1n || id > BigInt(this.all.length)) return undefined;
    return this.all[Number(id) - 1];
  }

  /** The first `limit` pets (with `status`, when given) in creation order. */
  list(limit: number, status?: PetStatus): Pet[] {
    const source = status ? (this.byStatus.get(status) ?? []) : this.all;
    return source.slice(0, limit);
  }

  /** The JSON text of `list(limit, status)`, built anew. */
  pageJson(limit: number, status?: PetStatus): string {
    return `[${this.list(limit, status).map(petJson).join(',')}]`;
  }

  /** The JSON of `list(limit, status)` as bytes, built once until the next pet is added. */
  listBody(limit: number, status?: PetStatus): Buffer {
    let byLimit = this.pages.get(status ?? '');
    if (!byLimit) this.pages.set(status ?? '', (byLimit = []));
    return (byLimit[limit] ??= Buffer.from(this.pageJson(limit, status)));
  }
}
