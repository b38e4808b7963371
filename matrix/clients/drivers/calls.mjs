/**
 * What every driver of the client matrix does: an application that makes a call, then another a second later
 * (of its own clock, which certify-client's fast clock speeds up), through the library under test, as
 * configured, and moves on when a call fails. Only the library decides when to retry and how long to wait;
 * the application's second between calls is what it would do anyway, and never waits out a 429 on purpose.
 * What the matrix finds is the library's, and what an application that trusts it would send. `callsAtOnce`
 * is a program that calls one request after another with no pause of its own (a batch job, a sync loop): a
 * library that gives up while the key is still refused then sends its next call at once.
 */
export const BASE_URL = process.env.PETSTORE_BASE_URL;
export const HEADERS = { authorization: `Bearer ${process.env.PETSTORE_API_KEY}` };
/** Enough calls for a client that waits out every refusal to pass through the whole refusal plan. */
const CALLS = 40;
const BETWEEN_CALLS_MS = 1_000;

export function calls(call) {
  return callsApart(call, BETWEEN_CALLS_MS);
}

export function callsAtOnce(call) {
  return callsApart(call, 0);
}

async function callsApart(call, betweenMs) {
  let failed = 0;
  for (let i = 0; i < CALLS; i++) {
    try {
      await call(`${BASE_URL}/pets?limit=1`);
    } catch {
      failed++;
    }
    if (betweenMs > 0) await new Promise((resolve) => setTimeout(resolve, betweenMs));
  }
  console.log(`${CALLS} calls, ${failed} failed (the library gave up, or does not retry)`);
}
