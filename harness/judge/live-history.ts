/**
 * What a live judge (the watcher, the recorder) judged, minute by minute (of the wall clock, when it judged it), for the last hours: the
 * charts of its page. Bounded: one bucket a minute, the last HISTORY_MINUTES of them.
 */
export const HISTORY_MINUTES = 6 * 60;
const MINUTE_MS = 60_000;

/** Running totals a live judge keeps; a bucket holds what each grew by within its minute. */
export interface LiveTotals {
  exchanges: number;
  /** Exchanges or windows that contradicted a rule the judge reports (MUST and SHOULD). */
  failures: number;
  overQuota: number;
  breaches: number;
  lost: number;
  unreadable: number;
}

export interface MinuteBucket extends LiveTotals {
  /** Start of the minute, ms since the epoch. */
  at: number;
  /** The most the judge was behind its source within the minute, in seconds (a recorder judges as it passes: 0). */
  lagS: number;
}

const ZERO: LiveTotals = { exchanges: 0, failures: 0, overQuota: 0, breaches: 0, lost: 0, unreadable: 0 };

export class LiveHistory {
  private readonly buckets: MinuteBucket[] = [];
  private last: LiveTotals = ZERO;

  /** Adds what the totals grew by since the last call to the minute of `now`. */
  record(totals: LiveTotals, lagS: number, now: number): void {
    const at = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    let bucket = this.buckets.at(-1);
    if (!bucket || bucket.at !== at) {
      bucket = { at, lagS: 0, ...ZERO };
      this.buckets.push(bucket);
      while (this.buckets.length > 0 && (this.buckets[0] as MinuteBucket).at <= at - HISTORY_MINUTES * MINUTE_MS) this.buckets.shift();
    }
    for (const name of Object.keys(ZERO) as Array<keyof LiveTotals>) bucket[name] += totals[name] - this.last[name];
    bucket.lagS = Math.max(bucket.lagS, lagS);
    this.last = { ...totals };
  }

  /** The minutes from the first recorded to the last, a missing minute (no poll in it) as zeros. */
  minutes(): MinuteBucket[] {
    const first = this.buckets[0];
    if (!first) return [];
    const byMinute = new Map(this.buckets.map((bucket) => [bucket.at, bucket]));
    const out: MinuteBucket[] = [];
    for (let at = first.at; at <= (this.buckets.at(-1) as MinuteBucket).at; at += MINUTE_MS) out.push(byMinute.get(at) ?? { at, lagS: 0, ...ZERO });
    return out;
  }
}
