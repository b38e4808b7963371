/**
 * Where a request's URL lands in the contract, remembered by method and URL: the path below the service's base
 * URL (query included), or null for a URL under no operation of it. A capture repeats a few thousand URLs (the
 * same pages listed, the same pets fetched) over its whole length, and reading each URL and finding its base cost
 * the judge a twelfth of its time. Bounded: past MAX_REMEMBERED URLs the memory starts again.
 */
import { operationBase } from '../../lib/capture/base.ts';
import { TwoKeyMemory } from './two-key-memory.ts';

const MAX_REMEMBERED = 16_384;

export class OperationPaths {
  private readonly remembered = new TwoKeyMemory<string | null>(MAX_REMEMBERED);

  /** `method` in upper case. Throws what `new URL` throws for a URL that cannot be read. */
  pathOf(method: string, url: string): string | undefined {
    const known = this.remembered.get(method, url);
    if (known !== undefined) return known ?? undefined;
    const parsed = new URL(url, 'http://capture.invalid');
    const base = operationBase(method, parsed);
    const path = base === undefined ? undefined : parsed.pathname.slice(base.length - parsed.origin.length) + parsed.search;
    this.remembered.set(method, url, path ?? null);
    return path;
  }
}
