// p-retry around fetch, as its README shows: a failed response throws, p-retry backs off and tries again.
import pRetry from 'p-retry';
import { calls, HEADERS } from './calls.mjs';

await calls((url) =>
  pRetry(
    async () => {
      const response = await fetch(url, { headers: HEADERS });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`status ${response.status}`);
    },
    { retries: 10 },
  ),
);
