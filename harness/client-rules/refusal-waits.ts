/**
 * What a client waited after each 429 of its run, beside what the 429 asked, per key (lib/verdicts/
 * refusal-wait-chart.ts draws it): the keys that met the most refusals first, each with its first refusals, in
 * the plan's clock.
 */
import { readRetryAfter } from '../../lib/rate-limiter/retry-after.ts';
import type { ClientWaits, RefusalWait } from '../../lib/verdicts/model.ts';
import type { RecordedExchange } from './refusing-server.ts';

/** A key's first refusals, at most this many: the plan's cases, not a naive client's thousands. */
const SHOWN = 40;

/** `byKey`: the run's exchanges per key (exchangesByKey). */
export function refusalWaits(byKey: ReadonlyMap<string, readonly RecordedExchange[]>): ClientWaits[] {
  return [...byKey]
    .map(([key, list]) => ({ key, waits: keyWaits(list) }))
    .filter((client) => client.waits.length > 0)
    .sort((a, b) => b.waits.length - a.waits.length || a.key.localeCompare(b.key));
}

function keyWaits(list: readonly RecordedExchange[]): RefusalWait[] {
  const waits: RefusalWait[] = [];
  for (const [index, refusal] of list.entries()) {
    if (refusal.status !== 429 || waits.length === SHOWN) continue;
    // The server's own time of the answer, to the millisecond: its Date header is whole seconds, which would
    // draw a date's wait up to a second longer than it was.
    const asked = readRetryAfter(refusal.retryAfter, { answeredAt: refusal.answeredAt });
    const next = list.slice(index + 1).find((exchange) => (exchange.sentAt ?? exchange.answeredAt) > refusal.answeredAt);
    waits.push({
      label: asked === undefined ? 'none' : /^\d+$/.test(asked.text) ? `${asked.text} s` : 'date',
      askedMs: asked?.waitMs ?? 0,
      ...(next === undefined ? {} : { waitedMs: (next.sentAt ?? next.answeredAt) - refusal.answeredAt }),
    });
  }
  return waits;
}
