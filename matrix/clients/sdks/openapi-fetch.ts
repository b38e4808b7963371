/**
 * An SDK generated from the contract (fixtures/openapi.yaml) by openapi-typescript, used through openapi-fetch,
 * as a TypeScript program run with `node --import tsx` (which keeps NODE_OPTIONS, so it runs on certify-client's
 * fast clock). `as-generated`: the client as its docs create it, no retry. `retry`: with the retry openapi-fetch's
 * maintainers point to (a custom `fetch`: here p-retry, as its README shows it, retries: 3, a 429 thrown).
 * Either way the program lists pets again at once after a call that failed. The types (generated/) are
 * generated again from the contract at every matrix run (generate-sdks.ts); at run time they are erased.
 */
import createClient from 'openapi-fetch';
import pRetry from 'p-retry';
import type { paths } from './generated/openapi-typescript.d.ts';

const CALLS = 40;
const withRetry = process.argv[2] === 'retry';

const retryingFetch = (request: Request): Promise<Response> =>
  pRetry(
    async () => {
      const response = await fetch(request.clone());
      if (response.status === 429 || response.status >= 500) throw new Error(`status ${response.status}`);
      return response;
    },
    { retries: 3 },
  );

const client = createClient<paths>({
  baseUrl: process.env.PETSTORE_BASE_URL,
  headers: { authorization: `Bearer ${process.env.PETSTORE_API_KEY}` },
  ...(withRetry ? { fetch: retryingFetch } : {}),
});

let failed = 0;
for (let i = 0; i < CALLS; i++) {
  try {
    const { error } = await client.GET('/pets', { params: { query: { limit: 1 } } });
    if (error !== undefined) failed++;
  } catch {
    failed++;
  }
}
console.log(`${CALLS} calls, ${failed} failed`);
