/**
 * Which part of a capture is Pet Store traffic. A capture made elsewhere (a browser, Playwright) holds
 * requests to other hosts too (pages, scripts, analytics); the Pet Store's base URL is the prefix under
 * which most requests address an operation of the contract, and everything outside it is skipped.
 */
import { matchOperation } from '../contract.ts';

/** The base URL (origin and path prefix, no trailing slash) under which this request is a contract operation. */
export function operationBase(method: string, url: URL): string | undefined {
  const segments = url.pathname.split('/');
  // The shortest operation path wins: /pets/7 under .../v1 rather than /7 under .../v1/pets.
  for (let cut = segments.length - 1; cut >= 1; cut--) {
    if (matchOperation(method, `/${segments.slice(cut).join('/')}`)) return `${url.origin}${segments.slice(0, cut).join('/')}`;
  }
  return undefined;
}

/** The path of a base URL, without a trailing slash: "/v1", or "" at the root. */
export function basePath(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '');
}

export class CaptureBase {
  private readonly origin: string;
  private readonly path: string;

  constructor(readonly url: string) {
    const parsed = new URL(url);
    this.origin = parsed.origin;
    this.path = parsed.pathname.replace(/\/+$/, '');
  }

  /**
   * A URL the recording's server gave (a Location, say) as the target would give it: under the target's
   * base instead of the recorded one, absolute or path-only as it was.
   */
  rebase(value: string, target: string): string {
    const targetPath = basePath(target);
    if (value === this.url || value.startsWith(`${this.url}/`)) return `${target}${value.slice(this.url.length)}`;
    if (value.startsWith(`${this.path}/`)) return `${targetPath}${value.slice(this.path.length)}`;
    return value;
  }

  /** The path below the base (e.g. /pets/7), or undefined when the URL is not under it. */
  below(url: URL): string | undefined {
    if (url.origin !== this.origin) return undefined;
    if (url.pathname !== this.path && !url.pathname.startsWith(`${this.path}/`)) return undefined;
    return url.pathname.slice(this.path.length) || '/';
  }
}
