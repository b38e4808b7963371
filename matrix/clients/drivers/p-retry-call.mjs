// A call through p-retry around fetch, as its README shows it: a failed response throws, p-retry backs off and tries again.
import pRetry from 'p-retry';
import { HEADERS } from './calls.mjs';

export const pRetryFetch = (retries) => (url) =>
  pRetry(
    async () => {
      const response = await fetch(url, { headers: HEADERS });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`status ${response.status}`);
    },
    { retries },
  );
