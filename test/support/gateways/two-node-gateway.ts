/**
 * A two-node gateway on real parts, as production runs one: Debian's nginx, configured as the how-to writes it
 * and writing its access log, balances two Node processes (redis-gateway-node.ts) that count every key in one
 * Debian redis-server through rate-limiter-flexible (or, `memory`, each in its own memory through the same library;
 * `racy`, a hand-written read-then-write counter) and pass
 * what they admit to one Pet Store (the reference server, its own limiter admitting everything).
 */
import { keyVariable, type KeysByPlan } from '../../../lib/keys.ts';
import { PLAN_IDS, type Quota } from '../../../lib/plans.ts';
import type { RateDecision, RateLimiter } from '../../../reference-server/limiter.ts';
import { createReferenceServer, type RunningServer } from '../../../reference-server/server.ts';
import { spawnServerScript, type SpawnedServer } from '../../../reference-server/spawn.ts';
import { startNginx, type Gateway } from '../../judge/nginx.ts';
import { startRedis, type RunningRedis } from './redis-server.ts';

const NODE_SCRIPT = new URL('./redis-gateway-node.ts', import.meta.url).pathname;

export type Counter = 'library' | 'memory' | 'racy';

export interface TwoNodeGateway {
  /** nginx's plain-HTTP address, under the how-to's prefix. */
  baseUrl: string;
  /** nginx's access log, in the how-to's format (complete once stopped). */
  accessLog: string;
  stop(): Promise<void>;
}

/** The Pet Store behind the gateway counts nothing: the gateway's nodes do, and replace its headers. */
class AdmitsEverything implements RateLimiter {
  take(_subject: string, quota: Quota): RateDecision {
    return { admitted: true, banned: false, limit: quota.perMinute, remaining: quota.perMinute, reset: 0 };
  }
}

/** Four keys a plan, so that each tool that drives the gateway in one test has keys of its own. */
export const GATEWAY_KEYS: Readonly<KeysByPlan> = Object.fromEntries(PLAN_IDS.map((plan) => [plan, [1, 2, 3, 4].map((n) => `gateway-${plan}-${n}`)])) as unknown as KeysByPlan;

/** Every key by the name the how-to's key map gives it: `free-1` for gateway-free-1. */
function namedKeys(): Record<string, string> {
  return Object.fromEntries(PLAN_IDS.flatMap((plan) => GATEWAY_KEYS[plan].map((key, i) => [key, `${plan}-${i + 1}`])));
}

/** The keys as the reference server and the nodes read them. */
function keysEnv(): Record<string, string> {
  return Object.fromEntries(PLAN_IDS.map((plan) => [keyVariable(plan), GATEWAY_KEYS[plan].join(',')]));
}

/**
 * `timeScale` 4 makes the windows 15 s; 1 is real time. `clockApartMs`: how far the second node's clock runs ahead
 * of the first's, so that the two round one window's end to different seconds in about that share of a second's
 * windows (with none apart, only an end within a few ms of a whole second splits).
 */
export async function startTwoNodeGateway({ timeScale, counter, clockApartMs = 0 }: { timeScale: number; counter: Counter; clockApartMs?: number }): Promise<TwoNodeGateway> {
  const parts: Array<{ stop(): Promise<void> }> = [];
  const stop = async (): Promise<void> => {
    for (const part of parts.reverse()) await part.stop();
  };
  try {
    const redis: RunningRedis = await startRedis();
    parts.push(redis);
    const store: RunningServer = await createReferenceServer({ timeScale, keys: { ...GATEWAY_KEYS } }, { limiter: new AdmitsEverything() });
    parts.push({ stop: () => store.close() });
    const env = { GATEWAY_UPSTREAM: store.baseUrl, GATEWAY_REDIS_PORT: String(redis.port), GATEWAY_COUNTER: counter, PETSTORE_TIME_SCALE: String(timeScale), ...keysEnv() };
    const nodes: SpawnedServer[] = await Promise.all([0, clockApartMs].map((offset) => spawnServerScript(NODE_SCRIPT, { ...env, GATEWAY_CLOCK_OFFSET_MS: String(offset) }, `gateway node (${counter} counter)`)));
    parts.push(...nodes);
    const nginx: Gateway = await startNginx(
      nodes.map((node) => node.baseUrl),
      namedKeys(),
      { plain: true },
    );
    parts.push(nginx);
    return { baseUrl: nginx.plainBaseUrl as string, accessLog: nginx.accessLog, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
