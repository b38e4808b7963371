/**
 * Functional and generated tests pause while a burst measures a window, but only for as long as a request is
 * in flight: the run's burst lease is held in common for each request, not for the whole test. A burst then
 * waits for a few milliseconds of requests, not for whole tests, which with the bundled server's short minute
 * windows decided how long a day's hundred windows took.
 */
import type { Transport } from './exchange.ts';
import type { Lease } from './leases.ts';

export function leasedTransport(transport: Transport, lease: () => Promise<Lease>): Transport {
  return {
    async send(request) {
      const held = await lease();
      try {
        return await transport.send(request);
      } finally {
        held.release();
      }
    },
  };
}
