/**
 * What the model needs of a long stream of one Limit's admitted answers to tell the limiter's kind
 * (recognise.ts, kindOfPairs), in memory bounded whatever the stream's length: the pairs decided one after the
 * other. Almost all of them say the same thing (Remaining one less, Reset unchanged); the kind shows in the few
 * where the Reset changed or Remaining did not fall. So the first few pairs of each way a pair can change are
 * kept, and with them every kind of evidence the stream held: the window's length (which decides whether a moved
 * Reset is a bucket's) is learned only once the stream has ended, so a pair cannot be judged telling as it comes.
 */
import { mayHaveEnded, type Reading } from './reading.ts';
import { bucketWindowBounds } from './refill.ts';

/** Pairs kept of each way a pair can change: enough for evidence to show, few enough to stay bounded. */
const PER_CHANGE = 4;

export class PairSample {
  /** Pairs kept, by the way they changed (changeOf). */
  private readonly kept = new Map<number, number>();
  private readonly sample: Array<readonly [Reading, Reading]> = [];
  private atLeastMs = 0;
  private atMostMs: number;
  private bucketLike = true;

  /** `longestMs`: the longest window a bucket of this Limit may refill over (the documented one). */
  constructor(private readonly longestMs: number) {
    this.atMostMs = longestMs;
  }

  /** One admitted answer: kept for what it says of a bucket's window. */
  addReading(reading: Reading): void {
    if (!this.bucketLike) return;
    const bounds = bucketWindowBounds([reading], this.longestMs);
    if (!bounds) {
      this.bucketLike = false;
      return;
    }
    this.atLeastMs = Math.max(this.atLeastMs, bounds.atLeastMs);
    this.atMostMs = Math.min(this.atMostMs, bounds.atMostMs);
    if (this.atLeastMs > this.atMostMs) this.bucketLike = false;
  }

  /** Two admitted answers, the second sent once the first was in. */
  addPair(previous: Reading, next: Reading): void {
    if (previous.reset === undefined || next.reset === undefined || previous.remaining === undefined || next.remaining === undefined) return;
    const change = this.changeOf(previous, next);
    const count = this.kept.get(change) ?? 0;
    if (count >= PER_CHANGE) return;
    this.kept.set(change, count + 1);
    this.sample.push([previous, next]);
  }

  /**
   * Takes back a pair found, once read, not to be one decided right after the other: an answer in flight with its
   * second may have been decided between them, so what changed between them is not one step.
   */
  withdraw(previous: Reading, next: Reading): void {
    const at = this.sample.findIndex(([first, second]) => first === previous && second === next);
    if (at === -1) return;
    this.sample.splice(at, 1);
    const change = this.changeOf(previous, next);
    this.kept.set(change, (this.kept.get(change) ?? 1) - 1);
  }

  /**
   * How a pair changed, as one number (made for every admitted answer, so not a string): which way Reset moved, which
   * way Remaining did, whether the second said one less than its Limit, whether the first's window may have ended.
   */
  private changeOf(previous: Reading, next: Reading): number {
    const resetMoved = Math.sign(next.reset! - previous.reset!) + 1;
    const remainingMoved = Math.sign(next.remaining! - previous.remaining!) + 1;
    const firstOfWindow = next.remaining === (next.limit ?? 0) - 1 ? 1 : 0;
    const ended = mayHaveEnded(previous.reset!, next.sentAt) ? 1 : 0;
    return ((resetMoved * 3 + remainingMoved) * 2 + firstOfWindow) * 2 + ended;
  }

  get pairs(): ReadonlyArray<readonly [Reading, Reading]> {
    return this.sample;
  }

  /**
   * The window over which a bucket of this Limit would refill for every answer's Reset to be when it is full again
   * (the shortest that fits: the most refill, so a legitimate bucket is never held to less than it gives back), or
   * undefined when no window fits them all (bucketWindowBounds, over the whole stream).
   */
  get bucketWindowMs(): number | undefined {
    return this.bucketLike && this.atLeastMs > 0 ? this.atLeastMs : undefined;
  }
}
