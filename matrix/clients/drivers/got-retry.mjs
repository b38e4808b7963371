// got with more retries, as its documentation configures them (retry.limit).
import got from 'got';
import { calls, HEADERS } from './calls.mjs';

await calls((url) => got(url, { headers: HEADERS, retry: { limit: 10 } }));
