/**
 * Where a request without a body stands against the contract, remembered by its method and path: a capture asks
 * the same few things again and again (the same page listed, the same pet fetched), and matching the operation
 * and reading the query cost the judge about a tenth of its time. A request with a body is placed each time (its
 * body decides it). Bounded: past MAX_REMEMBERED paths the memory starts again.
 */
import { placeRequest, type PlacedRequest } from '../../lib/contract.ts';

const MAX_REMEMBERED = 16_384;

export class PlacedRequests {
  /**
   * By method, then path (null: a request to no operation of the contract). Not by the two joined: a path the
   * judge remembered (operation-paths.ts) is the same string each time, whose hash is then already known.
   */
  private readonly byMethod = new Map<string, Map<string, PlacedRequest | null>>();
  private remembered = 0;

  place(method: string, path: string, contentType: string | undefined, body: string | undefined): PlacedRequest | undefined {
    if (body !== undefined) return placeRequest({ method, path, ...(contentType ? { contentType } : {}), body });
    let byPath = this.byMethod.get(method);
    if (!byPath) {
      byPath = new Map();
      this.byMethod.set(method, byPath);
    }
    const known = byPath.get(path);
    if (known !== undefined) return known ?? undefined;
    const placed = placeRequest({ method, path, ...(contentType ? { contentType } : {}) });
    if (++this.remembered > MAX_REMEMBERED) {
      for (const paths of this.byMethod.values()) paths.clear();
      this.remembered = 1;
    }
    byPath.set(path, placed ?? null);
    return placed;
  }
}
