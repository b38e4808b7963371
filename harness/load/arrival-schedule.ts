/**
 * Open-model arrivals for one key: the i-th request is due at anchor + i / rate, whatever happened to the
 * earlier ones, so a slow target cannot slow the offered load (and each request's latency is measured from
 * this intended time). A compliant client that must wait skips the arrivals that fall inside the wait and
 * starts the schedule again where the wait ends.
 */
export class ArrivalSchedule {
  private anchor: number;
  private index = 0;
  private readonly intervalMs: number;

  constructor(
    perSecond: number,
    startMs: number,
    private readonly endMs: number,
  ) {
    if (!(perSecond > 0)) throw new RangeError(`rate must be above 0, got ${perSecond}`);
    this.intervalMs = 1000 / perSecond;
    this.anchor = startMs;
  }

  /** Intended time of the next arrival, or undefined when it would fall at or after the end. */
  peek(): number | undefined {
    const at = this.anchor + this.index * this.intervalMs;
    return at < this.endMs ? at : undefined;
  }

  /** Consumes the next arrival and returns its intended time. */
  take(): number | undefined {
    const at = this.peek();
    if (at !== undefined) this.index++;
    return at;
  }

  /**
   * Drops the arrivals due before `at` and restarts the schedule there: the next arrival is at `at`.
   * Returns how many were dropped.
   */
  resumeAt(at: number): number {
    const until = Math.min(at, this.endMs);
    const dropped = Math.max(0, Math.ceil((until - this.anchor) / this.intervalMs) - this.index);
    this.anchor = at;
    this.index = 0;
    return dropped;
  }
}
