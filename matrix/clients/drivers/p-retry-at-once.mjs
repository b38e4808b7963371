// p-retry around fetch as its README shows it ({ retries: 5 }), in a program that calls again at once when p-retry gives up.
import { callsAtOnce } from './calls.mjs';
import { pRetryFetch } from './p-retry-call.mjs';

await callsAtOnce(pRetryFetch(5));
