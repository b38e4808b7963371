// Node's fetch, as is: no retry at all. The baseline.
import { calls, HEADERS } from './calls.mjs';

await calls(async (url) => {
  const response = await fetch(url, { headers: HEADERS });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`status ${response.status}`);
});
