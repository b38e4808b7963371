/** The Pet resource as the server holds and writes it (spec: Resources and their fields). */
import { componentSchema } from '../lib/contract.ts';

export type PetStatus = 'available' | 'pending' | 'sold';

/** The PetStatus values, in the contract's order, read from fixtures/openapi.yaml. */
export const PET_STATUSES: readonly PetStatus[] = (componentSchema('PetStatus').enum ?? []) as PetStatus[];

/** Where the spec shows no default for status, the reference server files a new pet as available. */
export const DEFAULT_STATUS: PetStatus = 'available';

export interface NewPetInput {
  name: string;
  /** An int64; a bigint when it lies beyond 2^53, so it is echoed exactly. */
  categoryId: number | bigint;
  status: PetStatus;
}

export interface Pet extends NewPetInput {
  id: number;
}

export function petJson(pet: Pet): string {
  return `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId},"status":"${pet.status}"}`;
}
