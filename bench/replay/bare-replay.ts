/**
 * The peer the replay harness is measured against in the same run: the same capture sent to the same
 * kind of server with the same client and concurrency, but nothing checked, compared or remembered. The
 * ratio says what the checks cost, on this machine, today.
 */
import { basename } from 'node:path';
import { readCapture } from '../../harness/har/read.ts';
import { CaptureBase, operationBase } from '../../harness/replay/base.ts';
import { toRecordedExchange } from '../../harness/replay/exchange.ts';
import { HttpClient } from '../../harness/replay/http-client.ts';

export async function bareReplay(capture: string, target: string, concurrency: number, authorization: string): Promise<{ exchanges: number; seconds: number }> {
  const client = new HttpClient(concurrency);
  const inFlight = new Set<Promise<void>>();
  let base: CaptureBase | undefined;
  let exchanges = 0;
  const started = performance.now();
  for await (const raw of readCapture(capture)) {
    const recorded = toRecordedExchange(raw, basename(capture));
    base ??= new CaptureBase(operationBase(recorded.method, recorded.url) ?? recorded.url.origin);
    const below = base.below(recorded.url);
    if (below === undefined) continue;
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const headers: Record<string, string> = { authorization };
    if (recorded.body !== undefined) headers['content-type'] = 'application/json';
    const sent = client.send({ method: recorded.method, url: new URL(target + below + recorded.url.search), headers, body: recorded.body }).then(() => {
      exchanges++;
      inFlight.delete(sent);
    });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  client.close();
  return { exchanges, seconds: (performance.now() - started) / 1000 };
}
