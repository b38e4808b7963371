/**
 * The ceiling the replay harness is measured against in the same run: the capture's requests, their bytes
 * built before the clock starts, sent through lib/http/client.ts (the load script's raw path, client.send)
 * as a closed loop at the same concurrency, with nothing read, checked or ordered. What the client and the
 * server manage together on this machine, for this traffic.
 */
import { HttpClient } from '../../lib/http/client.ts';
import { encodeRequest } from '../../lib/http/request-bytes.ts';
import { captureRequests } from './capture-requests.ts';

export async function rawReplay(capture: string, target: string, concurrency: number, authorization: string): Promise<{ exchanges: number; seconds: number }> {
  const requests: Buffer[] = [];
  for await (const request of captureRequests(capture, target, authorization)) requests.push(encodeRequest(request));

  const client = new HttpClient(new URL(target), { maxConnections: concurrency, timeoutMs: 30_000 });
  let next = 0;
  const started = performance.now();
  const loop = async (): Promise<void> => {
    for (let index = next++; index < requests.length; index = next++) await client.send(requests[index] as Buffer);
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  client.close();
  return { exchanges: requests.length, seconds };
}
