/**
 * A peer the replay harness is measured against in the same run: the same capture sent to the same kind
 * of server at the same concurrency, but over node:http (a keep-alive Agent), with nothing checked,
 * compared or remembered: what a plain replay in Node costs, next to the checked one over lib/http.
 */
import http from 'node:http';
import { headerPairs, type PlainRequest } from '../../lib/http/request-bytes.ts';
import { captureRequests } from './capture-requests.ts';

export async function bareReplay(capture: string, target: string, concurrency: number, authorization: string): Promise<{ exchanges: number; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const inFlight = new Set<Promise<void>>();
  let exchanges = 0;
  const started = performance.now();
  for await (const request of captureRequests(capture, target, authorization)) {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const sent = send(agent, request.method, request.url, request.headers, request.body).then(() => {
      exchanges++;
      inFlight.delete(sent);
    });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { exchanges, seconds: (performance.now() - started) / 1000 };
}

/** Resolves once the whole response has been read. */
function send(agent: http.Agent, method: string, url: URL, headers: PlainRequest['headers'], body: string | Buffer | undefined): Promise<void> {
  const named = Object.fromEntries(headerPairs(headers));
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: named, agent }, (response) => {
      response.on('data', () => undefined);
      response.on('end', resolve);
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
