/**
 * How one key's client behaves, on top of its arrival schedule.
 *
 * naive: sends every arrival, whatever came back: what the spec warns against ("Repeated requests after a
 * 429 can lead to a temporary ban").
 *
 * compliant: after a 429 it waits for Retry-After plus exponential backoff with full jitter (lib/backoff.ts),
 * skipping the arrivals that fall inside the wait, then sends one request (the retry), alone, and resumes once
 * the retry is answered. Arrivals due while the retry is out are skipped too, and a pacer that comes late (a busy
 * machine) resumes the schedule when it came, not where the wait ended: either way, requests sent together with
 * the retry would meet its 429 queued behind it and go out into the refusal, a burst no client should send. It also
 * keeps no more requests in flight than the last X-RateLimit-Remaining allows, so it meets one 429 per
 * window rather than one per open connection. A closed loop ("max" rate, a sender per connection slot) follows the
 * same rule: when a wait ends, one slot sends the retry and the others wait for its answer (loopTurn).
 */
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from '../../lib/backoff.ts';
import type { ArrivalSchedule } from './arrival-schedule.ts';
import type { Observation, RetryInfo } from './observation.ts';
import type { Behaviour } from './scenario.ts';

export interface Dispatch {
  intendedAt: number;
  retry: RetryInfo | undefined;
}

/** What one closed-loop sender does now: send, wait `waitMs`, or wait until the retry after a wait is answered. */
export type LoopTurn = { send: Dispatch } | { waitMs: number } | { untilAnswered: Promise<void> };

interface Budget {
  remaining: number;
  resetEpochMs: number;
}

export class KeyDriver {
  /** Arrivals not sent because the client was waiting out a 429 or had no budget left. */
  heldBack = 0;
  inFlight = 0;
  private pausedUntil = 0;
  private pendingRetry: RetryInfo | undefined;
  /**
   * The retry after the latest wait, while it is unanswered: nothing else goes until it is. Held by identity (the
   * engine hands each dispatch's RetryInfo back with its answer), so an older retry answered late, after a newer
   * one went out, does not end the newer one's turn alone.
   */
  private retryOut: RetryInfo | undefined;
  /** Resolves when the retry is answered: what closed-loop senders held back by it wait for. */
  private retryAnswered: Promise<void> = Promise.resolve();
  private answerRetry: () => void = () => {};
  private attempts = 0;
  private budget: Budget | undefined;

  constructor(
    readonly behaviour: Behaviour,
    private readonly schedule: ArrivalSchedule,
    private readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {}

  /** When this key next needs the pacer (ms since the start), or undefined when it has nothing left to send. */
  nextDueAt(): number | undefined {
    return this.pausedUntil > 0 ? this.pausedUntil : this.schedule.peek();
  }

  /**
   * The turn of one closed-loop sender at `now` (one of several, each sending as soon as its last answer came):
   * while a 429's wait lasts, it waits; the first to come once it is over sends the retry, alone; the others wait
   * until that is answered, then go on (or wait again, if it was refused). What it sends is counted in flight.
   */
  loopTurn(now: number): LoopTurn {
    if (this.pausedUntil > now) return { waitMs: this.pausedUntil - now };
    if (this.pausedUntil > 0) {
      const send = { intendedAt: this.pausedUntil, retry: this.pendingRetry };
      this.pausedUntil = 0;
      this.pendingRetry = undefined;
      this.startRetry(send.retry);
      this.inFlight++;
      return { send };
    }
    if (this.retryOut) return { untilAnswered: this.retryAnswered };
    this.inFlight++;
    return { send: { intendedAt: now, retry: undefined } };
  }

  /** True while the client waits out a 429. */
  get waiting(): boolean {
    return this.pausedUntil > 0;
  }

  /** The requests to send now. `epochOffsetMs` turns run time into Unix time, to compare with X-RateLimit-Reset. */
  due(now: number, epochOffsetMs: number): Dispatch[] {
    const out: Dispatch[] = [];
    if (this.pausedUntil > 0) {
      if (this.pausedUntil > now) return out;
      const intendedAt = this.pausedUntil;
      this.heldBack += this.schedule.resumeAt(Math.max(intendedAt, now));
      const retry = this.pendingRetry;
      this.pausedUntil = 0;
      this.pendingRetry = undefined;
      if (this.schedule.take() === undefined) return out;
      this.inFlight++;
      this.startRetry(retry);
      out.push({ intendedAt, retry });
    }
    for (let at = this.schedule.peek(); at !== undefined && at <= now; at = this.schedule.peek()) {
      this.schedule.take();
      if (this.behaviour === 'compliant' && (this.retryOut || !this.budgetAllows(epochOffsetMs + now))) {
        this.heldBack++;
        continue;
      }
      this.inFlight++;
      out.push({ intendedAt: at, retry: undefined });
    }
    return out;
  }

  /** Learns from an answered (or failed) request. */
  settled(observation: Observation): void {
    this.inFlight--;
    if (observation.retry !== undefined && observation.retry === this.retryOut) {
      this.retryOut = undefined;
      this.answerRetry();
    }
    if (this.behaviour === 'naive') return;
    if (observation.outcome === 'admitted') {
      this.attempts = 0;
      if (observation.remaining !== undefined && observation.reset !== undefined) {
        this.budget = { remaining: observation.remaining, resetEpochMs: observation.reset * 1000 };
      }
      return;
    }
    // A refusal, or a failure of the target (5xx, no answer): a good client backs off from both.
    if (observation.outcome === 'error' && observation.status === 401) return;
    if (observation.retry !== undefined || this.pausedUntil === 0) this.attempts++;
    const wait = backoffDelayMs(this.attempts, observation.retryAfterMs, this.policy, this.random);
    const until = observation.doneAt + wait;
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      this.pendingRetry = { after: observation.outcome === 'refused' ? 'refusal' : 'failure', waitedMs: wait, retryAfterMs: observation.retryAfterMs };
    }
  }

  private startRetry(retry: RetryInfo | undefined): void {
    // Senders still held back by an earlier retry look again, and wait for this one.
    this.answerRetry();
    this.retryOut = retry;
    this.retryAnswered = new Promise((resolve) => (this.answerRetry = resolve));
  }

  private budgetAllows(nowEpochMs: number): boolean {
    const budget = this.budget;
    return !budget || this.inFlight === 0 || budget.remaining - this.inFlight > 0 || nowEpochMs >= budget.resetEpochMs;
  }
}
