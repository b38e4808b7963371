/**
 * Whether a key's retries back off, judged over all its runs of refusals in a row together, so that a machine's
 * stall cannot decide it (ERR-4; harness/judge/client-rule-judge.ts feeds it).
 *
 * Each run gives what its retries waited beyond Retry-After, its first half and its later half. The key's runs are
 * pooled: its later halves must wait, in all, at least twice its first halves and a margin more. A stall (a loaded
 * machine that runs a client's timer, or reads the server's socket, a few hundred real ms late: seconds of the plan
 * at a fast clock) stretches one wait. In the later half it would read as growth and hide a client that does not
 * back off; in the first half it would read as growth missing and warn a client that does. So the longest waits of
 * each pooled half are set aside before the sums, one for each run beyond the first and at most MAX_STALLS: one run
 * alone is judged whole (nothing to tell a stall from its own waits), and a key needs more stalls than that in one
 * half to be misjudged. A client that waits exactly each Retry-After is still flat with its stalls set aside, and a
 * jittered backoff still grows: test/clients/backoff-false-warnings.spec.ts measures both, stalls included.
 *
 * Only the sums and the longest few waits of each half are kept, so a key refused all day costs no more.
 */

/** Stalls a key's pooled halves tolerate, each: a wait set aside per run beyond the first, up to this many. */
export const MAX_STALLS = 2;

/** One half of every run of a key: the sum of its waits and its longest few. */
class HalfPool {
  total = 0;
  /** The longest MAX_STALLS waits, longest first. */
  readonly longest: number[] = [];

  add(waits: readonly number[]): void {
    for (const wait of waits) {
      this.total += wait;
      const at = this.longest.findIndex((kept) => wait > kept);
      if (at >= 0) this.longest.splice(at, 0, wait);
      else this.longest.push(wait);
      if (this.longest.length > MAX_STALLS) this.longest.pop();
    }
  }

  /** The sum with the `aside` longest waits set aside. */
  without(aside: number): number {
    return this.longest.slice(0, aside).reduce((total, wait) => total - wait, this.total);
  }
}

export class BackoffGrowth {
  private readonly first = new HalfPool();
  private readonly later = new HalfPool();
  runs = 0;

  /** A run's waits beyond Retry-After, in order: its first half and its later half (the middle one of an odd run left out). */
  add(beyond: readonly number[]): void {
    const half = Math.floor(beyond.length / 2);
    this.first.add(beyond.slice(0, half));
    this.later.add(beyond.slice(beyond.length - half));
    this.runs++;
  }

  /** Waits set aside from each half as a stall's (see above). */
  get setAside(): number {
    return Math.min(MAX_STALLS, Math.max(0, this.runs - 1));
  }

  get firstMs(): number {
    return this.first.without(this.setAside);
  }

  get laterMs(): number {
    return this.later.without(this.setAside);
  }

  grows(marginMs: number): boolean {
    return this.laterMs >= 2 * this.firstMs + marginMs;
  }
}
