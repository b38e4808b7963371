/**
 * A target for one suite run: an in-process reference server (time sped up 60 times, or its clock run fast, a
 * store and a limiter of the test's choosing) behind the fault proxy, which applies the run's exchange edits.
 */
import { anchorAtDayStart } from '../../../lib/target-clock.ts';
import type { KeysByPlan } from '../../../lib/keys.ts';
import type { Quota } from '../../../lib/plans.ts';
import { FixedWindowLimiter, type RateLimiter } from '../../../reference-server/limiter.ts';
import { configFromEnv } from '../../../reference-server/config.ts';
import { createReferenceServer, type RunningServer } from '../../../reference-server/server.ts';
import type { PetStore } from '../../../reference-server/store.ts';
import { startFaultProxy, type ExchangeTransform, type FaultProxy } from '../../support/fault-proxy.ts';
import { combine } from './exchange-edits.ts';
import { upstreamKeys, type FaultContext } from './faults.ts';

export const VARIANT_TIME_SCALE = 60;

export interface VariantOptions {
  /** Exchange edits, applied in order; each built once the upstream's address is known. */
  transforms?: ReadonlyArray<(context: FaultContext) => ExchangeTransform>;
  /** Replaces the fixed-window limiter; `wrap` then wraps whichever limiter is in use. */
  limiter?: RateLimiter;
  wrapLimiter?: ReadonlyArray<(inner: RateLimiter) => RateLimiter>;
  store?: PetStore;
  seedPets?: number;
  /** The path the proxy serves the interface under, for the suite; /v1 when absent. */
  basePath?: string;
  timeScale?: number;
  /** Runs the server's clock this many times faster instead (its Reset and Retry-After in that clock); the suite is told through clockEnv. */
  clockRate?: number;
  /**
   * With clockRate: the real instant at which the server's clock equals the wall clock, to place its midnight; by
   * default the one at which it reads the start of a UTC day now (lib/target-clock.ts, anchorAtDayStart).
   */
  clockAnchorMs?: number;
  /** The keys the suite is given (the demo keys by default); the server accepts the proxy's and a neighbour's too. */
  suiteKeys?: KeysByPlan;
  /** The Enterprise quota agreed with this server (the reference server's generous default when absent). */
  enterpriseQuota?: Quota;
}

export interface VariantTarget {
  /** What the suite is pointed at: the proxy. */
  baseUrl: string;
  upstream: RunningServer;
  /** Absent when there is nothing to edit. */
  proxy: FaultProxy | undefined;
  /** What the suite must be told of the server's clock (PETSTORE_TARGET_CLOCK_*); empty for the wall clock. */
  clockEnv: Record<string, string>;
  close(): Promise<void>;
}

export async function startVariant(options: VariantOptions = {}): Promise<VariantTarget> {
  // A fast clock's day begins as the target starts, so no UTC midnight falls within a test unless the test places one.
  const clockAnchorMs = options.clockAnchorMs ?? anchorAtDayStart(options.clockRate ?? 1, Date.now());
  const timeScale = options.clockRate !== undefined ? 1 : (options.timeScale ?? VARIANT_TIME_SCALE);
  const base = options.limiter ?? new FixedWindowLimiter({ timeScale });
  const limiter = (options.wrapLimiter ?? []).reduce<RateLimiter>((inner, wrap) => wrap(inner), base);
  const upstream = await createReferenceServer(
    {
      timeScale,
      ...(options.clockRate !== undefined ? { clockRate: options.clockRate, clockAnchorMs } : {}),
      keys: upstreamKeys(options.suiteKeys),
      seedPets: options.seedPets ?? 120,
      ...(options.enterpriseQuota ? { quotas: configFromEnv(agreedEnterpriseEnv(options.enterpriseQuota)).quotas } : {}),
    },
    { limiter, ...(options.store ? { store: options.store } : {}) },
  );
  if (options.store) options.store.seed(options.seedPets ?? 120);
  const context: FaultContext = { upstreamBaseUrl: upstream.baseUrl };
  const transforms = options.transforms ?? [];
  // Without edits the suite talks to the server itself: a proxy would only slow the bursts that measure a window.
  const proxy = transforms.length > 0 ? await startFaultProxy(upstream.baseUrl, combine(transforms.map((make) => make(context)))) : undefined;
  const baseUrl = proxy?.baseUrl ?? upstream.baseUrl;
  return {
    baseUrl: options.basePath ? baseUrl.replace(/\/v1$/, options.basePath) : baseUrl,
    upstream,
    proxy,
    clockEnv: options.clockRate !== undefined ? { PETSTORE_TARGET_CLOCK_RATE: String(options.clockRate), PETSTORE_TARGET_CLOCK_ANCHOR_MS: String(clockAnchorMs) } : {},
    async close() {
      await proxy?.close();
      await upstream.close();
    },
  };
}

/** The variables that state an agreed Enterprise quota, for the server and the suite alike. */
export function agreedEnterpriseEnv(quota: Quota): Record<string, string> {
  return { PETSTORE_ENTERPRISE_PER_MINUTE: String(quota.perMinute), PETSTORE_ENTERPRISE_PER_DAY: String(quota.perDay) };
}
