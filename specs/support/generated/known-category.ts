/**
 * Which categories exist the spec does not say (RES-GAP-1), so a service may refuse a valid NewPet for its
 * categoryId. A refusal is the category's, not a broken create, when the same pet in the category every other
 * test uses is created.
 */
import { idText, type LosslessValue } from '../../../lib/lossless-json.ts';
import type { Exchange } from '../exchange.ts';

type Fields = Record<string, LosslessValue>;

/** The category every functional test creates pets in (newPet in support/pets.ts). */
export const KNOWN_CATEGORY = 1n;

/**
 * After `refused`: the pet in the known category and its creation when that was answered 201; undefined when the
 * refusal cannot be the category's (another status, the known category already) or the retry was refused too.
 */
export async function createdInKnownCategory(pet: Fields, refused: Exchange, create: (pet: Fields) => Promise<Exchange>): Promise<{ pet: Fields; exchange: Exchange } | undefined> {
  if (refused.response.status !== 400 || idText(pet.categoryId ?? null) === String(KNOWN_CATEGORY)) return undefined;
  const moved = { ...pet, categoryId: KNOWN_CATEGORY };
  const exchange = await create(moved);
  return exchange.response.status === 201 ? { pet: moved, exchange } : undefined;
}
