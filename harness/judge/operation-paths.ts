/**
 * Where a request's URL lands in the contract, remembered by method and URL: the path below the service's base
 * URL (query included), or null for a URL under no operation of it. A capture repeats a few thousand URLs (the
 * same pages listed, the same pets fetched) over its whole length, and reading each URL and finding its base cost
 * the judge a twelfth of its time. Bounded: past MAX_REMEMBERED URLs the memory starts again.
 */
import { operationBase } from '../../lib/capture/base.ts';

const MAX_REMEMBERED = 16_384;

export class OperationPaths {
  /** By method, then URL: not by the two joined, which would make a string per exchange. */
  private readonly byMethod = new Map<string, Map<string, string | null>>();
  private remembered = 0;

  /** `method` in upper case. Throws what `new URL` throws for a URL that cannot be read. */
  pathOf(method: string, url: string): string | undefined {
    let byUrl = this.byMethod.get(method);
    if (!byUrl) {
      byUrl = new Map();
      this.byMethod.set(method, byUrl);
    }
    const known = byUrl.get(url);
    if (known !== undefined) return known ?? undefined;
    const parsed = new URL(url, 'http://capture.invalid');
    const base = operationBase(method, parsed);
    const path = base === undefined ? undefined : parsed.pathname.slice(base.length - parsed.origin.length) + parsed.search;
    if (++this.remembered > MAX_REMEMBERED) {
      for (const urls of this.byMethod.values()) urls.clear();
      this.remembered = 1;
    }
    byUrl.set(url, path ?? null);
    return path;
  }
}
