// axios with axios-retry as its README configures it (retries: 3, exponentialDelay; its default condition
// retries a GET's 429 and waits at least its Retry-After), in a program that calls again at once when it gives up.
import axios from 'axios';
import axiosRetry from 'axios-retry';
import { callsAtOnce, HEADERS } from './calls.mjs';

axiosRetry(axios, { retries: 3, retryDelay: axiosRetry.exponentialDelay });
await callsAtOnce((url) => axios.get(url, { headers: HEADERS }));
