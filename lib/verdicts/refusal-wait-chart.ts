/**
 * What a client waited after each 429 beside what the 429 asked, as bars in pairs: ERR-3 and ERR-4 at a glance.
 * A waited bar below its asked bar is a request sent early; waited bars that stay level through refusals in a
 * row are no backoff; no waited bar, nothing more was sent on the key. Drawn for certify-client's report and
 * the client matrix's page.
 */
import { formatSeconds, groupedBarChart, STATUS_COLOURS } from '../charts.ts';
import type { Html } from '../html.ts';
import type { RefusalWait } from './model.ts';

export const REFUSAL_WAIT_LEGEND = "What each 429 asked (Retry-After) beside how long until the key's next request left, in the plan's seconds, for the key's first 429s in order. A waited bar below its asked bar is a request sent early (ERR-3); waited bars that stay level through the eight 5 s refusals in a row are no backoff (ERR-4); no waited bar: nothing more was sent on the key.";

export function refusalWaitChart(title: string, waits: readonly RefusalWait[]): Html {
  return groupedBarChart({
    title,
    categories: waits.map((wait) => wait.label),
    groups: [
      { name: 'asked (Retry-After)', colour: STATUS_COLOURS.refused, values: waits.map((wait) => wait.askedMs / 1000) },
      { name: 'waited', colour: STATUS_COLOURS.info, values: waits.map((wait) => (wait.waitedMs === undefined ? Number.NaN : wait.waitedMs / 1000)) },
    ],
    y: { label: 'seconds', format: formatSeconds, min: 0 },
    xLabel: 'each 429 in order, by its Retry-After',
    width: 560,
    height: 220,
  });
}
