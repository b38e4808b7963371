/** GET /pets/{petId} (getPet): found, not found, and ids beyond 2^53. */
import { idText } from '../../lib/lossless-json.ts';
import type { PetStoreClient } from '../support/client.ts';
import { answer, existingPet, idOf, objectIn, petsIn, sameValue, show } from '../support/pets.ts';
import { rule, test } from '../support/test.ts';

const TWO_TO_53 = 2n ** 53n;
const INT64_MAX = 2n ** 63n - 1n;

/** An id the list does not show, to ask for a pet that does not exist. */
async function unusedId(api: PetStoreClient, candidates: readonly bigint[]): Promise<string> {
  const shown = new Set((petsIn(await api.listPets({ limit: 100 })) ?? []).map(idOf));
  return String(candidates.find((id) => !shown.has(String(id))) ?? candidates[0]);
}

test(...rule('GET-1', 'an existing id is answered 200 with that Pet, as it was created'), async ({ api, check, target }) => {
  const pet = await existingPet(api, target.settings.readOnly);
  const id = idOf(pet);
  if (!check.expect(id !== undefined, 'expected a pet to look up: creating one (or listing one in a read-only run) gave none', { rule: 'CREATE-1' })) return;
  const found = await api.getPet(id!);
  if (!check.expect(found.response.status === 200, `expected 200 for pet ${id}, got ${answer(found)}`, { evidence: found })) return;
  const got = objectIn(found);
  for (const field of ['id', 'name', 'categoryId', 'status'] as const) {
    if (pet![field] === undefined) continue;
    check.expect(sameValue(pet![field], got?.[field]), `expected ${field} ${show(pet![field])} as created, got ${show(got?.[field])}`, { evidence: found });
  }
});

test(...rule('GET-2', 'an id that no animal has is answered 404 with an Error'), async ({ api, check }) => {
  const id = await unusedId(api, [INT64_MAX - 7n, INT64_MAX - 1_000_003n, 987_654_321_987n]);
  const missing = await api.getPet(id);
  check.expect(missing.response.status === 404, `expected 404 for pet ${id}, which the list does not show, got ${answer(missing)}`, { evidence: missing });
});

test(...rule('GET-3', 'petId is an int64: an id above 2^53 is looked up exactly'), async ({ api, check }) => {
  // Ids above 2^53 the target handed out itself must come back as themselves.
  const listed = (petsIn(await api.listPets({ limit: 100 })) ?? []).map(idOf).filter((id): id is string => id !== undefined && BigInt(id) > TWO_TO_53);
  for (const id of listed.slice(0, 3)) {
    const found = await api.getPet(id);
    check.expect(found.response.status === 200 && idOf(found.json) === id, `expected pet ${id} back exactly, got ${answer(found)}`, { evidence: found });
  }
  // Ids just above 2^53 round to a neighbour as doubles: the answer is 404 or that very pet, never another.
  for (const id of [TWO_TO_53 + 1n, TWO_TO_53 + 3n, INT64_MAX]) {
    const found = await api.getPet(String(id));
    const status = found.response.status;
    check.expect(status === 404 || status === 200, `expected 404 or 200 for pet ${id}, got ${answer(found)}`, { evidence: found });
    if (status === 200) check.expect(idOf(found.json) === idText(id), `expected pet ${id} or 404, got pet ${idOf(found.json)}`, { evidence: found });
  }
  if (listed.length === 0) check.observe('the list shows no id above 2^53; ids just above it were answered without rounding', 'GET-3');
});

test(...rule('STATE-GAP-1', "how a pet's status changes over time"), async ({ api, check, target }) => {
  const pet = await existingPet(api, target.settings.readOnly);
  const id = idOf(pet);
  if (id === undefined) return check.observe('no pet to watch: none could be created or listed');
  const first = objectIn(await api.getPet(id))?.status;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const later = objectIn(await api.getPet(id))?.status;
  check.observe(`pet ${id} had status ${show(pet?.status)} when ${target.settings.readOnly ? 'listed' : 'created'}, ${show(first)} when fetched, ${show(later)} a second later`);
});
