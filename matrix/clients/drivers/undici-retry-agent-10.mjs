// undici's RetryAgent with more retries, as its documentation configures them (maxRetries).
import { Agent, RetryAgent, request } from 'undici';
import { calls, HEADERS } from './calls.mjs';

const dispatcher = new RetryAgent(new Agent(), { maxRetries: 10 });
await calls(async (url) => {
  const response = await request(url, { headers: HEADERS, dispatcher });
  await response.body.arrayBuffer();
  if (response.statusCode >= 400) throw new Error(`status ${response.statusCode}`);
});
