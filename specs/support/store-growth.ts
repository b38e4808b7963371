/**
 * Growing the store to the size a rule needs, politely: creations count against the key's quota, so they go
 * out in batches no larger than half of what X-RateLimit-Remaining says is left (a 429 is still waited out
 * by the client), and only as many as are missing. A staging is rarely emptied, and every run adds to it: what
 * a run creates goes where it costs the next runs least, into the statuses the store already holds most of, so
 * that some status stays short of a full page (LIST-7 needs one) for as many runs as can be.
 */
import { PAGE_SIZE } from '../../lib/page-size.ts';
import { wholeNumber } from '../../lib/rate-limit-headers.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';
import { setStatusThatDoesNotMatter, newPet, PET_STATUSES, petsIn, type JsonObject } from './pets.ts';

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

/** How many animals each status's list shows: exact below a full page, a full page (100) at most. */
export async function shownByStatus(api: PetStoreClient): Promise<Map<string, number>> {
  const pages = await Promise.all(PET_STATUSES.map((status) => api.listPets({ status, limit: MAX_PAGE })));
  return new Map(PET_STATUSES.map((status, index) => [status, petsIn(pages[index]!)?.length ?? 0]));
}

/**
 * How many animals the store holds, as far as lists can tell: the sum of one full page per status, exact
 * while each status has fewer than 100 animals, a lower bound otherwise. A single list cannot tell, since
 * it never shows more than 100.
 */
export async function animalsShown(api: PetStoreClient): Promise<number> {
  return sum(await shownByStatus(api));
}

/**
 * The status the store holds most of (the first of the contract's order on a tie), or of those whose lists are
 * not full (`notFull`). Animals whose status does not matter go to the first: a status already full costs LIST-7
 * nothing, and the others stay short of a full page, checkable, for as many runs as can be.
 */
export function fullestStatus(shown: ReadonlyMap<string, number>, { notFull = false } = {}): string | undefined {
  let fullest: string | undefined;
  for (const status of PET_STATUSES) {
    const count = shown.get(status) ?? 0;
    if (notFull && count >= MAX_PAGE) continue;
    if (fullest === undefined || count > shown.get(fullest)!) fullest = status;
  }
  return fullest;
}

let settled: Promise<void> | undefined;

/**
 * Once per worker: the animals its tests create without a status in mind go to the fullest status (newPet). Lists
 * that got no answer (a spent key, a lost connection) end the test as its own first request would, and the next
 * test asks again.
 */
export function settleStatusThatDoesNotMatter(api: PetStoreClient): Promise<void> {
  settled ??= shownByStatus(api).then(
    (shown) => setStatusThatDoesNotMatter(fullestStatus(shown)!),
    (error: unknown) => {
      settled = undefined;
      throw error;
    },
  );
  return settled;
}

export interface Growth {
  /** Animals the lists show after growing. */
  shown: number;
  /** Creations sent, and how many of them were answered 201. */
  sent: number;
  created: number;
}

/**
 * Creates animals until the lists show at least `count` (none in a read-only run): each in the fullest status
 * whose list is not yet full, so the growth fills one page before it starts another, and the least held
 * statuses are touched last.
 */
export async function growStore(api: PetStoreClient, count: number, readOnly: boolean): Promise<Growth> {
  const shown = await shownByStatus(api);
  const before = sum(shown);
  if (before >= count || readOnly) return { shown: before, sent: 0, created: 0 };
  const statuses = Array.from({ length: count - before }, () => {
    const status = fullestStatus(shown, { notFull: true }) ?? PET_STATUSES[0]!;
    shown.set(status, (shown.get(status) ?? 0) + 1);
    return status;
  });
  let turn = 0;
  const answers = await createPaced(api, statuses.length, () => newPet({ status: statuses[turn++]! }));
  return { shown: await animalsShown(api), sent: answers.length, created: answers.filter((exchange) => exchange.response.status === 201).length };
}

const sum = (shown: ReadonlyMap<string, number>): number => [...shown.values()].reduce((total, count) => total + count, 0);

/** How many pets the list shows at most (up to a full page), creating pets until it shows at least `count`, unless read-only. */
export async function ensurePets(api: PetStoreClient, count: number, readOnly: boolean, query: Record<string, string> = {}): Promise<number> {
  const seen = petsIn(await api.listPets({ ...query, limit: MAX_PAGE }))?.length ?? 0;
  if (seen >= count || readOnly) return seen;
  const status = query.status;
  await createPaced(api, count - seen, () => newPet(status ? { status } : {}));
  return petsIn(await api.listPets({ ...query, limit: MAX_PAGE }))?.length ?? 0;
}
