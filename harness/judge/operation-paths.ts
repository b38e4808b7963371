/**
 * What a request's URL tells the judge, remembered by method and URL: where it lands (the path below the service's
 * base URL, query included; null for a URL under no operation of the contract) and the credentials its query carries
 * by position (?api_key=…), for the redactor to learn. A capture repeats a few thousand URLs (the same pages listed,
 * the same pets fetched) over its whole length, and reading each URL, finding its base and reading its query cost the
 * judge a twelfth of its time. Bounded: past MAX_REMEMBERED URLs the memory starts again.
 */
import { operationBase } from '../../lib/capture/base.ts';
import { credentialsCarried } from '../../lib/credential-shape.ts';
import { TwoKeyMemory } from './two-key-memory.ts';

const MAX_REMEMBERED = 16_384;

export interface UrlReading {
  /** Below the service's base URL, query included: /pets?status=sold. */
  path: string;
  /** What the query carries by position (lib/credential-shape.ts): a URL's part of `credentialsCarried`. */
  carried: readonly string[];
}

export class OperationPaths {
  private readonly remembered = new TwoKeyMemory<UrlReading | null>(MAX_REMEMBERED);

  /** `method` in upper case; undefined for a URL under no operation. Throws what `new URL` throws for a URL that cannot be read. */
  readingOf(method: string, url: string): UrlReading | undefined {
    const known = this.remembered.get(method, url);
    if (known !== undefined) return known ?? undefined;
    const parsed = new URL(url, 'http://capture.invalid');
    const base = operationBase(method, parsed);
    const reading = base === undefined ? undefined : { path: parsed.pathname.slice(base.length - parsed.origin.length) + parsed.search, carried: credentialsCarried({ url }) };
    this.remembered.set(method, url, reading ?? null);
    return reading;
  }
}
