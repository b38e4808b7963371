// undici's RetryAgent with its defaults (429 among the statuses; Retry-After honoured; exponential backoff).
import { Agent, RetryAgent, request } from 'undici';
import { calls, HEADERS } from './calls.mjs';

const dispatcher = new RetryAgent(new Agent());
await calls(async (url) => {
  const response = await request(url, { headers: HEADERS, dispatcher });
  await response.body.arrayBuffer();
  if (response.statusCode >= 400) throw new Error(`status ${response.statusCode}`);
});
