// ky with its default retry (2 retries; Retry-After honoured on 429).
import ky from 'ky';
import { calls, HEADERS } from './calls.mjs';

await calls((url) => ky.get(url, { headers: HEADERS }).arrayBuffer());
