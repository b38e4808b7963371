// got with its default retry (2 retries; 429 among the statuses; Retry-After honoured).
import got from 'got';
import { calls, HEADERS } from './calls.mjs';

await calls((url) => got(url, { headers: HEADERS }));
