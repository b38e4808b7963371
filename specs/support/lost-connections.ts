/**
 * A measurement the target cut short by closing, resetting or not answering its connection says nothing about
 * the rule it measures: the test stops as "partly checked" with the cause and what to do, never "fail". So does one
 * whose request the client sent again after its connection closed unanswered: the target may have counted that
 * request twice (a middlebox that reset the connection after passing it on), so the window holds one admission the
 * measurement did not see. Only for measuring clients: what a functional request gets back (or not) is judged by its
 * own rule.
 */
import type { Transport } from './exchange.ts';
import { Unanswered } from './unanswered.ts';

const LOST = /closed the connection|reset the connection|connection refused|no answer within|socket hang up|EPIPE/;

export function lostConnectionsUnmeasured(transport: Transport, stop: (reason: string) => void): Transport {
  return {
    async send(request) {
      let response;
      try {
        response = await transport.send(request);
      } catch (error) {
        // A request sent and not answered is RESP-3's evidence: the client judges it, then stops the measurement.
        if (error instanceof Unanswered) throw error;
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
        if (LOST.test(message)) stop(`the target cut a measuring request short (${message}), so this measurement could not finish; run again, and look at the target's logs if it keeps happening`);
        throw error;
      }
      if (response.sentAgain) stop(`the connection of a measuring request (${request.method} ${request.url}) closed before any answer and the request was sent again, so the target may have counted it twice and this measurement cannot be read; run again, and look at what stands between this client and the target if it keeps happening`);
      return response;
    },
  };
}
