// axios as is: no retry.
import axios from 'axios';
import { calls, HEADERS } from './calls.mjs';

await calls((url) => axios.get(url, { headers: HEADERS }));
