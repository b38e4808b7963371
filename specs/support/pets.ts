/** Reading pets and errors out of responses, and making the pets a test needs. */
import { randomUUID } from 'node:crypto';
import { componentSchema } from '../../lib/contract.ts';
import { idText, type LosslessValue } from '../../lib/lossless-json.ts';
import type { PetStoreClient } from './client.ts';
import type { Exchange } from './exchange.ts';

export type JsonObject = { [key: string]: LosslessValue };

/** The PetStatus values, from the contract. */
export const PET_STATUSES: readonly string[] = componentSchema('PetStatus').enum ?? [];

export const isObject = (value: LosslessValue | undefined): value is JsonObject =>
  value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);

/** The list's pets when the body is an array (of anything); undefined otherwise. */
export function petsIn(exchange: Exchange): LosslessValue[] | undefined {
  return Array.isArray(exchange.json) ? exchange.json : undefined;
}

/** The body as an object, when it is one. */
export function objectIn(exchange: Exchange): JsonObject | undefined {
  return isObject(exchange.json) ? exchange.json : undefined;
}

export function idOf(pet: LosslessValue | undefined): string | undefined {
  return isObject(pet) ? idText(pet.id) : undefined;
}

/** A short readable rendering of a value for a message. */
export function show(value: LosslessValue | undefined, max = 160): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? `${inner}n` : inner)) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** An Error body's code, quoted, for a message; empty when there is none. */
export function errorCode(exchange: Exchange): string {
  const code = objectIn(exchange)?.code;
  return typeof code === 'string' ? `code "${code}"` : '';
}

/** An answer in a few words, for a gist: the status and an Error body's code ("400 invalid_request", "201"). */
export function statusGist(exchange: Exchange): string {
  const code = objectIn(exchange)?.code;
  return `${exchange.response.status}${typeof code === 'string' ? ` ${code.slice(0, 40)}` : ''}`;
}

/** What the response was, for "expected X, got Y" messages. */
export function answer(exchange: Exchange): string {
  const body = exchange.response.body.trim();
  return `${exchange.response.status}${body ? ` ${body.length > 200 ? `${body.slice(0, 200)}…` : body}` : ' with no body'}`;
}

/**
 * The status of the animals a test creates when their status does not matter: the one the store holds most of
 * (store-growth.ts, fillerStatus), so that the others stay short of a full page for LIST-7 run after run.
 */
let anyStatus = 'available';

/** Sets the status newPet gives when none is asked for (once per worker, before its first test). */
export function setStatusThatDoesNotMatter(status: string): void {
  anyStatus = status;
}

export const statusThatDoesNotMatter = (): string => anyStatus;

/**
 * A NewPet with a name that says who made it, of ordinary values (a short plain name, category 1: fixtures/openapi.yaml, x-acceptance-open), which every
 * service must create; `fields` may add values at a gap, which a service may refuse.
 */
export function newPet(fields: JsonObject = {}): JsonObject {
  return { name: `conformance ${randomUUID().slice(0, 8)}`, categoryId: 1, status: anyStatus, ...fields };
}

/** Whether a returned field equals what was sent, comparing integers exactly. */
export function sameValue(sent: LosslessValue | undefined, got: LosslessValue | undefined): boolean {
  const sentId = idText(sent);
  const gotId = idText(got);
  if (sentId !== undefined || gotId !== undefined) return sentId === gotId;
  return sent === got;
}

/** A pet that exists: one this test creates, or in a read-only run one the list shows. */
export async function existingPet(api: PetStoreClient, readOnly: boolean): Promise<JsonObject | undefined> {
  if (!readOnly) {
    const created = await api.createPet(newPet());
    return created.response.status === 201 ? objectIn(created) : undefined;
  }
  const first = petsIn(await api.listPets({ limit: 1 }))?.[0];
  return isObject(first) ? first : undefined;
}
