/**
 * Growing the store to the size a rule needs, politely: creations count against the key's quota, so they go
 * out in batches no larger than half of what X-RateLimit-Remaining says is left (a 429 is still waited out
 * by the client), and only as many as are missing.
 */
import { PAGE_SIZE } from '../../lib/page-size.ts';
import { wholeNumber } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { newPet, PET_STATUSES, petsIn, type JsonObject } from './pets.ts';

const MAX_PAGE = PAGE_SIZE.maximum;
const MAX_BATCH = 20;

/** Creates `count` pets made by `make`, paced by X-RateLimit-Remaining; returns every answer. */
export async function createPaced(api: PetStoreClient, count: number, make: () => JsonObject = () => newPet()): Promise<Exchange[]> {
  const answers: Exchange[] = [];
  let remaining = MAX_BATCH * 2;
  while (answers.length < count) {
    const batch = Math.max(1, Math.min(MAX_BATCH, count - answers.length, Math.floor(remaining / 2)));
    const sent = await Promise.all(Array.from({ length: batch }, () => api.createPet(make())));
    answers.push(...sent);
    remaining = Math.min(...sent.map((exchange) => wholeNumber(exchange.response.headers['x-ratelimit-remaining']) ?? MAX_BATCH * 2));
  }
  return answers;
}

/**
 * How many animals the store holds, as far as lists can tell: the sum of one full page per status, exact
 * while each status has fewer than 100 animals, a lower bound otherwise. A single list cannot tell, since
 * it never shows more than 100.
 */
export async function animalsShown(api: PetStoreClient): Promise<number> {
  const pages = await Promise.all(PET_STATUSES.map((status) => api.listPets({ status, limit: MAX_PAGE })));
  return pages.reduce((sum, page) => sum + (petsIn(page)?.length ?? 0), 0);
}

export interface Growth {
  /** Animals the lists show after growing. */
  shown: number;
  /** Creations sent, and how many of them were answered 201. */
  sent: number;
  created: number;
}

/** Creates animals until the lists show at least `count` (none in a read-only run), statuses in turn. */
export async function growStore(api: PetStoreClient, count: number, readOnly: boolean): Promise<Growth> {
  const before = await animalsShown(api);
  if (before >= count || readOnly) return { shown: before, sent: 0, created: 0 };
  let turn = 0;
  const answers = await createPaced(api, count - before, () => newPet({ status: PET_STATUSES[turn++ % PET_STATUSES.length]! }));
  return { shown: await animalsShown(api), sent: answers.length, created: answers.filter((exchange) => exchange.response.status === 201).length };
}

/** How many pets the list shows at most (up to a full page), creating pets until it shows at least `count`, unless read-only. */
export async function ensurePets(api: PetStoreClient, count: number, readOnly: boolean, query: Record<string, string> = {}): Promise<number> {
  const seen = petsIn(await api.listPets({ ...query, limit: MAX_PAGE }))?.length ?? 0;
  if (seen >= count || readOnly) return seen;
  const status = query.status;
  await createPaced(api, count - seen, () => newPet(status ? { status } : {}));
  return petsIn(await api.listPets({ ...query, limit: MAX_PAGE }))?.length ?? 0;
}
