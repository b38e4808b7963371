/**
 * The period of traffic a process read: the first and last answer of every exchange it read, its own keys' or
 * not. Shards over the same traffic (--shard i/n) each read all of it, so they read the same period, though each
 * judges only its keys; certify merges only shards of one period (lib/verdicts/shard-evidence.ts).
 */
import type { TrafficPeriod } from '../../lib/verdicts/evidence.ts';

export class ReadPeriod {
  private first = Infinity;
  private last = -Infinity;

  add(answeredAt: number): void {
    if (answeredAt < this.first) this.first = answeredAt;
    if (answeredAt > this.last) this.last = answeredAt;
  }

  /** Undefined until an exchange was read. */
  get period(): TrafficPeriod | undefined {
    return this.first === Infinity ? undefined : { from: new Date(this.first).toISOString(), to: new Date(this.last).toISOString() };
  }
}
