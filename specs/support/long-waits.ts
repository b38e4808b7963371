/**
 * A 429 that asks for a longer wait than the test has left cannot be waited out politely, and it is no evidence
 * against any rule: the test stops as "partly checked", naming the wait and what to do, before the polite client
 * would give up with an error that reads as a failure. Counts the 429s in a row as the client's attempts do, and
 * allows for the most jitter the client's backoff may add to that attempt (lib/backoff.ts).
 */
import { DEFAULT_BACKOFF } from '../../lib/backoff.ts';
import { retryAfterMs } from '../../lib/rate-limiter/retry-after.ts';
import type { TargetClock } from '../../lib/target-clock.ts';
import type { Transport } from './exchange.ts';

export function longWaitsUnchecked(transport: Transport, clock: TargetClock, timeLeftMs: () => number, stop: (reason: string) => void): Transport {
  let refusedInRow = 0;
  return {
    async send(request) {
      const response = await transport.send(request);
      if (response.status !== 429) {
        refusedInRow = 0;
        return response;
      }
      refusedInRow++;
      const asked = retryAfterMs(response.headers['retry-after'], clock.now());
      const jitter = Math.min(DEFAULT_BACKOFF.capMs, DEFAULT_BACKOFF.baseMs * 2 ** (refusedInRow - 1));
      const waitMs = (asked === undefined ? 0 : clock.toRealMs(asked)) + jitter;
      const left = timeLeftMs();
      if (waitMs > left) {
        stop(
          `a 429 asked for a wait of ${Math.ceil(waitMs / 1000)} s (Retry-After: ${response.headers['retry-after'] ?? 'absent'}), longer than the ${Math.max(0, Math.floor(left / 1000))} s this test had left, so it stopped here; run again when fewer tests share the key, or with a longer --timeout`,
        );
      }
      return response;
    },
  };
}
