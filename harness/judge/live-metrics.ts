/**
 * What a live judge (the watcher's, the recorder's) has found, as Prometheus metrics (OpenMetrics text, through prom-client), read from
 * the judge's own tallies after each batch of lines: nothing is judged a second way here, only counted.
 * Labels stay bounded: rules and plans are the spec's, keys are pseudonyms (never a key), the first `maxKeys`
 * by name and every later one under key="other".
 * The series an alert reads with increase() start at 0 (each rule's failures, each plan's windows over quota, the
 * "other" key's breaches): a series that first appears already at 3 shows Prometheus no increase. A named key's
 * breaches cannot be started ahead (which keys will breach is not known), so the client alert also reads a
 * series that is new (petstore-watch.rules.yml).
 */
import { Counter, Gauge, Registry, openMetricsContentType, type OpenMetricsContentType } from 'prom-client';
import { QUOTA_RULES } from '../../lib/checks/registry.ts';
import { catalogue } from '../../lib/rules.ts';
import { CLIENT_RULES } from './client-exchange.ts';
import type { RuleTallies } from './rule-tally.ts';

/** The rules a window over quota breaks, and the plan each is of. */
const PLAN_OF_QUOTA_RULE: Readonly<Record<string, string>> = Object.fromEntries(QUOTA_RULES.map((rule) => [rule, rule.split('-')[1]!.toLowerCase()]));
export const OTHER_KEYS = 'other';

interface Seen {
  judged: number;
  failures: number;
  partly: number;
}

/**
 * The names keep the watcher's prefix (petstore_watch_), whoever judges: the shipped alerting rules read these
 * series, and a recorder judging as it passes is watched by the same rules.
 */
export class LiveMetrics {
  readonly registry = openMetricsRegistry();
  private readonly judged = this.counter('petstore_watch_exchanges_judged_total', 'Exchanges, and windows, that put the rule to the test', ['rule']);
  private readonly failures = this.counter('petstore_watch_rule_failures_total', 'Exchanges or windows that contradict the rule', ['rule', 'level']);
  private readonly partly = this.counter('petstore_watch_rule_partly_checked_total', 'Times the traffic showed only part of the rule', ['rule']);
  private readonly overQuota = this.counter('petstore_watch_windows_over_quota_total', "Windows that admitted more than the plan's quota", ['plan']);
  private readonly breaches = this.counter('petstore_watch_client_breaches_total', 'Client-rule breaches by key pseudonym (ERR-3: sent before Retry-After passed; ERR-4: a burst into a refusal); keys past the cap are "other"', ['key', 'rule']);
  readonly read = this.counter('petstore_watch_exchanges_read_total', 'Exchanges read from the source and handed to the judge', []);
  readonly unreadable = this.counter('petstore_watch_unreadable_lines_total', "Lines that are not an exchange in the how-to's format", []);
  readonly lost = this.counter('petstore_watch_lines_lost_total', 'Lines the source had that were never judged (a rotated file gone before it was read counts one: how many it held is unknown; over syslog, each number a connection skipped)', []);
  readonly lag = new Gauge({ name: 'petstore_watch_lag_seconds', help: 'How long the oldest line not yet judged has been in the source (0 when caught up)', registers: [this.registry] });
  private readonly openWindows = new Gauge({ name: 'petstore_watch_open_windows', help: 'Rate-limit windows still open, across keys', registers: [this.registry] });
  private readonly seen = new Map<string, Seen>();
  private readonly keysNamed = new Set<string>();

  constructor(private readonly maxKeys: number) {
    for (const rule of catalogue.rules) this.failures.inc({ rule: rule.id, level: rule.level }, 0);
    for (const plan of new Set(Object.values(PLAN_OF_QUOTA_RULE))) this.overQuota.inc({ plan }, 0);
    for (const rule of CLIENT_RULES) this.breaches.inc({ key: OTHER_KEYS, rule }, 0);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Brings the per-rule counters up to the tallies: each counter grows by what its tally grew since the last call. */
  update(tallies: RuleTallies, openWindows: number): void {
    for (const rule of catalogue.rules) {
      const tally = tallies.get(rule.id);
      if (!tally) continue;
      const now: Seen = { judged: tally.exchanges + tally.windows, failures: tally.violations, partly: [...tally.unchecked.values()].reduce((sum, times) => sum + times, 0) };
      const before = this.seen.get(rule.id) ?? { judged: 0, failures: 0, partly: 0 };
      if (now.judged > before.judged) this.judged.inc({ rule: rule.id }, now.judged - before.judged);
      if (now.failures > before.failures) {
        this.failures.inc({ rule: rule.id, level: rule.level }, now.failures - before.failures);
        const plan = PLAN_OF_QUOTA_RULE[rule.id];
        if (plan) this.overQuota.inc({ plan }, now.failures - before.failures);
      }
      if (now.partly > before.partly) this.partly.inc({ rule: rule.id }, now.partly - before.partly);
      this.seen.set(rule.id, now);
    }
    this.openWindows.set(openWindows);
  }

  /** A client rule broken on a key, named by its pseudonym while fewer than the cap are named, else "other". */
  breach(pseudonym: string, rule: string, times: number): void {
    if (!this.keysNamed.has(pseudonym) && this.keysNamed.size < this.maxKeys) this.keysNamed.add(pseudonym);
    this.breaches.inc({ key: this.keysNamed.has(pseudonym) ? pseudonym : OTHER_KEYS, rule }, times);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
}

function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(openMetricsContentType);
  return registry;
}
