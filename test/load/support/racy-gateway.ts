/**
 * A deliberately broken target that only traffic from several clients at once can catch: a gateway of two
 * nodes (two reference servers) in front of one shared counter, as a rate limiter spread over gateway nodes
 * with a counter in Redis is built. A TCP balancer pins each connection to a node, in turn. Each node counts
 * its own admissions at once but publishes them to the shared counter only after a lag (a batched write), so
 * a node does not see what the other admitted in the last LAG: requests that reach both nodes at once are
 * admitted past the quota, with headers that still say the quota (Remaining values handed out twice).
 *
 * A single client whose requests do not overlap reuses one keep-alive connection, so it meets one node,
 * whose count of its own admissions is exact: the quota holds for it. The fault shows only when requests
 * of one key come in on several connections at once, which is what several generators do.
 */
import net from 'node:net';
import type { Quota } from '../../../lib/plans.ts';
import { MINUTE_MS, type RateDecision, type RateLimiter } from '../../../reference-server/limiter.ts';
import { createReferenceServer, type RunningServer } from '../../../reference-server/server.ts';

interface Window {
  end: number;
  count: number;
}

class SharedCounter {
  private readonly subjects = new Map<string, { minute: Window; day: Window }>();

  /** The subject's windows, opened for every node at once; counts only as published. */
  windowsOf(subject: string, now: number, minuteMs: number): { minute: Window; day: Window } {
    let state = this.subjects.get(subject);
    if (!state) {
      state = { minute: { end: now + minuteMs, count: 0 }, day: { end: now + minuteMs * 1440, count: 0 } };
      this.subjects.set(subject, state);
    }
    if (now >= state.minute.end) state.minute = { end: now + minuteMs, count: 0 };
    if (now >= state.day.end) state.day = { end: now + minuteMs * 1440, count: 0 };
    return state;
  }
}

class LaggingNodeLimiter implements RateLimiter {
  private readonly unpublished: Array<{ subject: string; at: number; minuteEnd: number; dayEnd: number }> = [];

  constructor(
    private readonly shared: SharedCounter,
    private readonly minuteMs: number,
    private readonly lagMs: number,
  ) {}

  take(subject: string, quota: Quota, now: number): RateDecision {
    const windows = this.shared.windowsOf(subject, now, this.minuteMs);
    while (this.unpublished.length > 0 && (this.unpublished[0]?.at ?? now) <= now - this.lagMs) {
      const entry = this.unpublished.shift() as (typeof this.unpublished)[number];
      const published = this.shared.windowsOf(entry.subject, now, this.minuteMs);
      if (published.minute.end === entry.minuteEnd) published.minute.count++;
      if (published.day.end === entry.dayEnd) published.day.count++;
    }
    const mine = this.unpublished.filter((entry) => entry.subject === subject);
    const minuteCount = windows.minute.count + mine.filter((entry) => entry.minuteEnd === windows.minute.end).length;
    const dayCount = windows.day.count + mine.filter((entry) => entry.dayEnd === windows.day.end).length;
    const minuteLeft = quota.perMinute - minuteCount;
    const dayLeft = quota.perDay - dayCount;
    const dayBinds = dayLeft < minuteLeft;
    const [limit, left, end] = dayBinds ? [quota.perDay, dayLeft, windows.day.end] : [quota.perMinute, minuteLeft, windows.minute.end];
    if (minuteLeft <= 0 || dayLeft <= 0) {
      return { admitted: false, banned: false, limit, remaining: 0, reset: Math.ceil(end / 1000), retryAfter: Math.max(1, Math.ceil((end - now) / 1000)) };
    }
    this.unpublished.push({ subject, at: now, minuteEnd: windows.minute.end, dayEnd: windows.day.end });
    return { admitted: true, banned: false, limit, remaining: left - 1, reset: Math.ceil(end / 1000) };
  }
}

export interface RacyGateway {
  baseUrl: string;
  close(): Promise<void>;
}

/** `lagMs` is in real time; the default is a tenth of the target's minute. */
export async function startRacyGateway(timeScale: number, lagMs = MINUTE_MS / timeScale / 10): Promise<RacyGateway> {
  const shared = new SharedCounter();
  const minuteMs = MINUTE_MS / timeScale;
  const nodes: RunningServer[] = [];
  for (let i = 0; i < 2; i++) nodes.push(await createReferenceServer({ timeScale }, { limiter: new LaggingNodeLimiter(shared, minuteMs, lagMs) }));
  const ports = nodes.map((node) => Number(new URL(node.baseUrl).port));
  let next = 0;
  const sockets = new Set<net.Socket>();
  const balancer = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: ports[next++ % ports.length] as number });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => (socket === client ? upstream : client).destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  const address = balancer.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => balancer.close(() => resolve()));
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
}
