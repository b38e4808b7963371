/**
 * An SDK generated from the contract (fixtures/openapi.yaml) by @hey-api/openapi-ts on its Axios client, as a
 * TypeScript program run with `node --import tsx` (which keeps NODE_OPTIONS, so it runs on certify-client's fast
 * clock). `as-generated`: the SDK configured as hey-api's docs do it (`client.setConfig({ baseURL, auth })`), no
 * retry. `retry`: with the retry those docs point to: they hand over the Axios instance (`client.instance`) for
 * Axios's own interceptors, and axios-retry is Axios's retry, configured as its README does (retries: 3,
 * exponentialDelay). Either way the program lists pets again at once after a call that failed.
 */
import type { AxiosInstance } from 'axios';
import axiosRetry from 'axios-retry';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HEY_API_OUTPUT } from '../generate-sdks.ts';

/** What this program uses of the generated SDK, which is written at every matrix run and not typechecked here. */
interface HeyApiClient {
  setConfig(config: { baseURL?: string; auth?: () => string }): unknown;
  instance: AxiosInstance;
}
type ListPets = (options: { query: { limit: number } }) => Promise<{ error?: unknown }>;

const CALLS = 40;
const generated = (file: string): string => pathToFileURL(path.join(HEY_API_OUTPUT, file)).href;
const { client } = (await import(generated('client.gen.ts'))) as { client: HeyApiClient };
const { listPets } = (await import(generated('sdk.gen.ts'))) as { listPets: ListPets };

client.setConfig({ baseURL: process.env.PETSTORE_BASE_URL, auth: () => process.env.PETSTORE_API_KEY ?? '' });
if (process.argv[2] === 'retry') axiosRetry(client.instance, { retries: 3, retryDelay: axiosRetry.exponentialDelay });

let failed = 0;
for (let i = 0; i < CALLS; i++) {
  try {
    const { error } = await listPets({ query: { limit: 1 } });
    if (error !== undefined) failed++;
  } catch {
    failed++;
  }
}
console.log(`${CALLS} calls, ${failed} failed`);
