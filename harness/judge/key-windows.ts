/**
 * A key's rate-limit windows, judged from whatever part of its traffic a capture holds. Windows are told
 * apart as the load harness tells them (harness/load/windows.ts): by X-RateLimit-Limit (which quota binds,
 * classOf) and X-RateLimit-Reset (when it ends). Partial traffic is the normal case (sampling, several
 * proxies, other clients on the key), so a window fails only on a contradiction that holds whatever was not
 * seen, and only among answers that came while nothing could have refilled or aged out: more than `slackMs`
 * before the Reset the window names (Reset's whole seconds, plus the capture's clock against the target's).
 * Unseen requests only ever take from a window, so in that stretch:
 * - no two admitted answers say the same Remaining, and an answer decided after another says less (RL-6);
 * - Reset stays put (RL-7);
 * - no more are admitted than the limit, and none after one said 0 were left (the plan's quota).
 * A window is closed, and forgotten but for its counts, once the capture's clock passed its Reset by
 * `slackMs`: memory is bounded by the keys and their open windows, never by the exchanges.
 */
import { classOf, type WindowClass } from '../load/windows.ts';
import type { PlanId } from '../../lib/plans.ts';

export interface Reading {
  /** The exchange's position in the capture. */
  number: number;
  sentAt: number;
  answeredAt: number;
  admitted: boolean;
  limit: number;
  remaining: number;
  reset: number;
}

export interface Contradiction {
  /** 'quota': admitted past the window's limit; the caller names the plan's rule. */
  rule: 'RL-6' | 'RL-7' | 'quota';
  message: string;
  /** The exchanges that prove it, by their position in the capture. */
  exchanges: number[];
}

export interface ClosedWindow {
  windowClass: WindowClass;
  limit: number;
  /** Admitted answers that came while nothing could refill: what the checks above were judged on. */
  firmAdmissions: number;
  /**
   * Every admission of the window is in the capture: its Remaining values run from limit - 1 down with none
   * skipped. Otherwise the target's own headers say requests this capture does not hold took from it.
   */
  whole: boolean;
}

interface OpenWindow {
  windowClass: WindowClass;
  limit: number;
  reset: number;
  firmAdmissions: number;
  /** Remaining of each firm admission, with the exchange that said it. */
  remaining: Map<number, number>;
  /** Firm admissions past the limit, the first few. */
  overLimit: number[];
}

/** Evidence of one contradiction: this many exchanges are enough to follow it. */
const MAX_EXCHANGES = 6;

export class KeyWindows {
  private readonly open = new Map<string, OpenWindow>();
  /** The latest admitted answer per limit: what the next one is compared with. */
  private readonly latest = new Map<number, Reading>();
  private readonly limitsSeen: number[] = [];

  constructor(
    private readonly plan: PlanId | undefined,
    private readonly slackMs: number,
  ) {}

  /** Takes one answer that carried all three headers; returns what it contradicts. */
  add(reading: Reading, found: (contradiction: Contradiction) => void): void {
    if (!this.limitsSeen.includes(reading.limit)) this.limitsSeen.push(reading.limit);
    if (!reading.admitted) return;
    const firm = reading.answeredAt < reading.reset * 1000 - this.slackMs;
    this.compareWithLatest(reading, found);
    if (!firm) return;
    const id = `${reading.limit}|${reading.reset}`;
    let window = this.open.get(id);
    if (!window) {
      window = { windowClass: classOf(reading.limit, this.plan ?? 'enterprise', this.limitsSeen), limit: reading.limit, reset: reading.reset, firmAdmissions: 0, remaining: new Map(), overLimit: [] };
      this.open.set(id, window);
    }
    window.firmAdmissions++;
    const twin = window.remaining.get(reading.remaining);
    if (twin !== undefined) {
      found({ rule: 'RL-6', message: `two admitted answers of one window (Limit ${reading.limit}, Reset ${reading.reset}) both said Remaining ${reading.remaining}, more than ${seconds(this.slackMs)} before that Reset`, exchanges: [twin, reading.number] });
    } else window.remaining.set(reading.remaining, reading.number);
    if (window.firmAdmissions > window.limit) {
      window.overLimit.push(reading.number);
      if (window.firmAdmissions === window.limit + 1) {
        const first = [...window.remaining.values()].slice(0, MAX_EXCHANGES - 1);
        found({ rule: 'quota', message: `${window.limit + 1} admitted in one window whose limit is ${window.limit} (Reset ${reading.reset}), every one more than ${seconds(this.slackMs)} before that Reset`, exchanges: [...first, reading.number] });
      }
    }
  }

  /** Closes every window the capture's clock has passed; `now` is the latest answer's time. */
  closeBefore(now: number, closed: (window: ClosedWindow) => void): void {
    for (const [id, window] of this.open) {
      if (window.reset * 1000 + this.slackMs >= now) continue;
      this.open.delete(id);
      closed(this.summary(window));
    }
  }

  closeAll(closed: (window: ClosedWindow) => void): void {
    for (const window of this.open.values()) closed(this.summary(window));
    this.open.clear();
  }

  get openWindows(): number {
    return this.open.size;
  }

  private summary(window: OpenWindow): ClosedWindow {
    let whole = window.remaining.size === window.firmAdmissions;
    for (let left = window.limit - 1; whole && left > window.limit - 1 - window.firmAdmissions; left--) whole = window.remaining.has(left);
    return { windowClass: window.windowClass, limit: window.limit, firmAdmissions: window.firmAdmissions, whole };
  }

  /**
   * An admitted answer decided after the latest one of the same limit (its request left once that answer
   * was in), while the latest one's window could not have ended: Reset the same, and Remaining lower.
   */
  private compareWithLatest(reading: Reading, found: (contradiction: Contradiction) => void): void {
    const before = this.latest.get(reading.limit);
    if (before !== undefined && reading.sentAt < before.answeredAt) return;
    this.latest.set(reading.limit, reading);
    if (before === undefined || reading.answeredAt >= before.reset * 1000 - this.slackMs) return;
    const left = `${seconds(before.reset * 1000 - reading.answeredAt)} before the Reset the earlier answer named`;
    if (reading.reset !== before.reset) {
      found({ rule: 'RL-7', message: `X-RateLimit-Reset moved from ${before.reset} to ${reading.reset} within one window (Limit ${reading.limit}), ${left}`, exchanges: [before.number, reading.number] });
    } else if (reading.remaining > before.remaining) {
      // The same value twice is the window's own check (add), whatever the order the answers came in.
      found({ rule: 'RL-6', message: `X-RateLimit-Remaining rose from ${before.remaining} to ${reading.remaining} from one admitted request to the next (Limit ${reading.limit}, Reset ${reading.reset}), ${left}: nothing can have refilled`, exchanges: [before.number, reading.number] });
    }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
