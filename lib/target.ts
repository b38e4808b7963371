/**
 * Reads PETSTORE_BASE_URL; throws a message naming the variable when it is not an http(s) URL.
 * Returns undefined when it is unset, which means "the bundled reference server".
 */
export function baseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.PETSTORE_BASE_URL?.trim();
  if (!raw) return undefined;
  return normaliseBaseUrl(raw, 'PETSTORE_BASE_URL');
}

export function normaliseBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${source}: "${raw}" is not a URL; expected something like http://127.0.0.1:8080/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${source}: "${raw}" must be an http:// or https:// URL`);
  }
  if (url.search || url.hash) throw new Error(`${source}: "${raw}" must not carry a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}
