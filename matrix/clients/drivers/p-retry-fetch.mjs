// p-retry around fetch with 10 retries.
import { calls } from './calls.mjs';
import { pRetryFetch } from './p-retry-call.mjs';

await calls(pRetryFetch(10));
