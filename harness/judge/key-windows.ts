/**
 * A key's rate-limit windows, judged from whatever part of its traffic a capture holds. Windows are told
 * apart as the load harness tells them (harness/load/windows.ts): by X-RateLimit-Limit (which quota binds,
 * classOf) and X-RateLimit-Reset (when it ends). Partial traffic is the normal case (sampling, several
 * proxies, other clients on the key), and the spec leaves the limiter's kind open (RL-GAP-2): fixed windows,
 * a sliding log, a sliding counter, a token bucket. So a window fails only on a contradiction that holds
 * whatever was not seen, under every kind:
 *
 * - Reset never moves back: a window's end, a sliding log's oldest request leaving, a bucket's being full
 *   again only ever come later. An answer decided after another (its request left once that answer was in)
 *   that names an earlier Reset for the same Limit contradicts it (RL-7).
 * - No more than the limit are admitted under one Reset, among answers that came more than `slackMs` before
 *   it (Reset's whole seconds, plus at least a second of the capture's clock against the target's): a fixed
 *   window, a sliding log and a sliding counter's current window give nothing back before their Reset, and a
 *   bucket full again at that Reset, more than a second ahead, cannot have taken more than its limit while its
 *   Reset stayed in one second (the plan's quota).
 * A Remaining said twice, or rising, within one Reset is what a bucket or a sliding counter does; it is
 * observed (the limiter's kind), never failed.
 *
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
  rule: 'RL-7' | 'quota';
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
}

/** Evidence of one contradiction: this many exchanges are enough to follow it. */
const MAX_EXCHANGES = 6;

export class KeyWindows {
  private readonly open = new Map<string, OpenWindow>();
  /** The latest admitted answer per limit: what the next one is compared with. */
  private readonly latest = new Map<number, Reading>();
  /** Per Limit: whether answers showed quota given back before Reset (a bucket, a sliding counter), and how. */
  private readonly givenBack = new Map<number, string>();
  private readonly limitsSeen: number[] = [];

  constructor(
    private readonly plan: PlanId | undefined,
    private readonly slackMs: number,
  ) {}

  /** Takes one answer that carried all three headers; reports what contradicts every kind of limiter. */
  add(reading: Reading, found: (contradiction: Contradiction) => void): void {
    if (!this.limitsSeen.includes(reading.limit)) this.limitsSeen.push(reading.limit);
    if (!reading.admitted) return;
    this.compareWithLatest(reading, found);
    if (reading.answeredAt >= reading.reset * 1000 - this.slackMs) return;
    const id = `${reading.limit}|${reading.reset}`;
    let window = this.open.get(id);
    if (!window) {
      window = { windowClass: classOf(reading.limit, this.plan ?? 'enterprise', this.limitsSeen), limit: reading.limit, reset: reading.reset, firmAdmissions: 0, remaining: new Map() };
      this.open.set(id, window);
    }
    window.firmAdmissions++;
    const twin = window.remaining.get(reading.remaining);
    if (twin === undefined) window.remaining.set(reading.remaining, reading.number);
    else if (!this.givenBack.has(reading.limit)) this.givenBack.set(reading.limit, `two admitted answers under one Reset both said Remaining ${reading.remaining} (exchanges ${twin}, ${reading.number})`);
    if (window.firmAdmissions === window.limit + 1) {
      const first = [...window.remaining.values()].slice(0, MAX_EXCHANGES - 1);
      found({ rule: 'quota', message: `${window.limit + 1} admitted under one Reset (${reading.reset}) whose limit is ${window.limit}, every one more than ${seconds(this.slackMs)} before that Reset`, exchanges: [...first, reading.number] });
    }
  }

  /** Closes every window the capture's clock has passed; `now` is the latest answer's time. */
  closeBefore(now: number, closed: (window: ClosedWindow) => void): void {
    for (const [id, window] of this.open) {
      if (window.reset * 1000 + this.slackMs >= now) continue;
      this.open.delete(id);
      closed(summary(window));
    }
  }

  /** The capture ended: every window closes. */
  closeAll(closed: (window: ClosedWindow) => void): void {
    for (const window of this.open.values()) closed(summary(window));
    this.open.clear();
  }

  /** What the answers showed of the limiter's kind, per Limit: quota given back before Reset, or not seen to be. */
  kinds(): Array<{ limit: number; givenBack: string | undefined }> {
    return [...this.latest.keys()].map((limit) => ({ limit, givenBack: this.givenBack.get(limit) }));
  }

  get openWindows(): number {
    return this.open.size;
  }

  /** An admitted answer decided after the latest one of the same limit (its request left once that answer was in). */
  private compareWithLatest(reading: Reading, found: (contradiction: Contradiction) => void): void {
    const before = this.latest.get(reading.limit);
    if (before !== undefined && reading.sentAt < before.answeredAt) return;
    this.latest.set(reading.limit, reading);
    if (before === undefined) return;
    const exchanges = [before.number, reading.number];
    if (reading.reset < before.reset) {
      found({ rule: 'RL-7', message: `X-RateLimit-Reset moved back from ${before.reset} to ${reading.reset} (Limit ${reading.limit}): no kind of window or bucket ends earlier than it said`, exchanges });
      return;
    }
    if (reading.answeredAt >= before.reset * 1000 - this.slackMs) return;
    const left = `${seconds(before.reset * 1000 - reading.answeredAt)} before the Reset the earlier answer named`;
    if (this.givenBack.has(reading.limit)) return;
    if (reading.reset > before.reset) this.givenBack.set(reading.limit, `Reset moved forward from ${before.reset} to ${reading.reset}, ${left} (exchanges ${exchanges.join(', ')})`);
    else if (reading.remaining > before.remaining) this.givenBack.set(reading.limit, `Remaining rose from ${before.remaining} to ${reading.remaining} under one Reset, ${left} (exchanges ${exchanges.join(', ')})`);
  }
}

function summary(window: OpenWindow): ClosedWindow {
  let whole = window.remaining.size === window.firmAdmissions;
  for (let left = window.limit - 1; whole && left > window.limit - 1 - window.firmAdmissions; left--) whole = window.remaining.has(left);
  return { windowClass: window.windowClass, limit: window.limit, firmAdmissions: window.firmAdmissions, whole };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
