// axios with axios-retry as its README configures exponential backoff, retrying 429s (isRetryableError).
import axios from 'axios';
import axiosRetry from 'axios-retry';
import { calls, HEADERS } from './calls.mjs';

axiosRetry(axios, { retries: 10, retryDelay: axiosRetry.exponentialDelay, retryCondition: axiosRetry.isRetryableError });
await calls((url) => axios.get(url, { headers: HEADERS }));
