// ky with more retries, as its documentation configures them (retry.limit).
import ky from 'ky';
import { calls, HEADERS } from './calls.mjs';

await calls((url) => ky.get(url, { headers: HEADERS, retry: { limit: 10 } }).arrayBuffer());
