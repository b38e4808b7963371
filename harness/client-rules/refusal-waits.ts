/**
 * What a client waited after each 429 of its run, beside what the 429 asked: the picture of ERR-3 and ERR-4 a
 * reviewer reads at a glance (a bar under its Retry-After is a request sent early; bars that stay flat through
 * consecutive refusals are no backoff). Taken from the key that met the most refusals, in the plan's clock.
 */
import { readRetryAfter } from '../../lib/rate-limiter/retry-after.ts';
import type { RecordedExchange } from './refusing-server.ts';

export interface RefusalWait {
  /** The 429's place in the plan, short: "2 s", "date", "0 s", "5 s" (a Retry-After in seconds, or a date). */
  label: string;
  askedMs: number;
  /** Until the key's next request left; undefined when the client sent nothing more on the key. */
  waitedMs: number | undefined;
}

/** The key's first refusals, at most this many: the plan's cases, not a naive client's thousands. */
const SHOWN = 16;

export function refusalWaits(exchanges: readonly RecordedExchange[]): { key: string | undefined; waits: RefusalWait[] } {
  const byKey = new Map<string, RecordedExchange[]>();
  for (const exchange of exchanges) byKey.set(exchange.key, [...(byKey.get(exchange.key) ?? []), exchange]);
  const refusals = (list: readonly RecordedExchange[]): number => list.filter((exchange) => exchange.status === 429).length;
  const [key, list] = [...byKey].sort((a, b) => refusals(b[1]) - refusals(a[1]))[0] ?? [undefined, []];
  const waits: RefusalWait[] = [];
  for (const [index, refusal] of list.entries()) {
    if (refusal.status !== 429 || waits.length === SHOWN) continue;
    const asked = readRetryAfter(refusal.retryAfter, { answeredAt: refusal.answeredAt, date: refusal.date });
    const next = list.slice(index + 1).find((exchange) => (exchange.sentAt ?? exchange.answeredAt) > refusal.answeredAt);
    waits.push({
      label: asked === undefined ? 'none' : /^\d+$/.test(asked.text) ? `${asked.text} s` : 'date',
      askedMs: asked?.waitMs ?? 0,
      waitedMs: next === undefined ? undefined : (next.sentAt ?? next.answeredAt) - refusal.answeredAt,
    });
  }
  return { key, waits };
}
