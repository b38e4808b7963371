/**
 * Where a request without a body stands against the contract, remembered by its method and path: a capture asks
 * the same few things again and again (the same page listed, the same pet fetched), and matching the operation
 * and reading the query cost the judge about a tenth of its time. A request with a body is placed each time (its
 * body decides it). Bounded: past MAX_REMEMBERED paths the memory starts again.
 */
import { placeRequest, type PlacedRequest } from '../../lib/contract.ts';
import { TwoKeyMemory } from './two-key-memory.ts';

const MAX_REMEMBERED = 16_384;

export class PlacedRequests {
  /** By method, then path; null: a request to no operation of the contract. */
  private readonly remembered = new TwoKeyMemory<PlacedRequest | null>(MAX_REMEMBERED);

  place(method: string, path: string, contentType: string | undefined, body: string | undefined): PlacedRequest | undefined {
    if (body !== undefined) return placeRequest({ method, path, ...(contentType ? { contentType } : {}), body });
    const known = this.remembered.get(method, path);
    if (known !== undefined) return known ?? undefined;
    const placed = placeRequest({ method, path, ...(contentType ? { contentType } : {}) });
    this.remembered.set(method, path, placed ?? null);
    return placed;
  }
}
