// p-retry around fetch as its README configures it for a rate limit: a 429 thrown as a RateLimitError that does
// not consume a retry (shouldConsumeRetry), retries: 2 for other failures, maxRetryTime: 60_000 to end a limit that
// never clears; in a program that calls again at once when p-retry gives up.
import pRetry from 'p-retry';
import { callsAtOnce, HEADERS } from './calls.mjs';

class RateLimitError extends Error {}

await callsAtOnce((url) =>
  pRetry(
    async () => {
      const response = await fetch(url, { headers: HEADERS });
      await response.arrayBuffer();
      if (response.status === 429) throw new RateLimitError('status 429');
      if (!response.ok) throw new Error(`status ${response.status}`);
    },
    { retries: 2, shouldConsumeRetry: ({ error }) => !(error instanceof RateLimitError), maxRetryTime: 60_000 },
  ),
);
