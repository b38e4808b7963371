/**
 * A target's clock as a client reads it. A server under test may run its clock faster than real time (the
 * bundled server does, PETSTORE_CLOCK_RATE): its X-RateLimit-Reset and Retry-After then speak of that clock,
 * exactly as a real server's speak of the wall clock, so every rule about them reads the same. Whoever talks to
 * such a server takes "now" from this clock and turns every wait the server asks for into real time through it.
 * With rate 1 it is the wall clock and every conversion is the identity.
 */
import { sleep } from './backoff.ts';

export interface TargetClock {
  /** How many target milliseconds pass in one real millisecond. */
  readonly rate: number;
  /** The target's time, in milliseconds since the epoch. */
  now(): number;
  /** The target's time at a real instant (milliseconds since the epoch). */
  at(realMs: number): number;
  /** How long a span of the target's time lasts in real time. */
  toRealMs(targetMs: number): number;
  /** How much of the target's time passes in a real span. */
  toTargetMs(realMs: number): number;
  /** Waits for a span of the target's time. */
  sleep(targetMs: number): Promise<void>;
}

/** A clock running `rate` times faster than the wall clock, equal to it at `anchorMs`. */
export function targetClock(rate: number = 1, anchorMs: number = 0): TargetClock {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`a clock rate must be a positive number, got ${rate}`);
  const at = rate === 1 ? (realMs: number): number => realMs : (realMs: number): number => anchorMs + (realMs - anchorMs) * rate;
  return {
    rate,
    now: () => at(Date.now()),
    at,
    toRealMs: (targetMs) => targetMs / rate,
    toTargetMs: (realMs) => realMs * rate,
    sleep: (targetMs) => sleep(targetMs / rate),
  };
}

export const WALL_CLOCK: TargetClock = targetClock(1);

const DAY_MS = 86_400_000;

/**
 * The anchor at which a clock running `rate` times faster reads `targetMs` at the real instant `realMs` (any, at
 * rate 1: the wall clock). An anchor is whole milliseconds: the clock then reads `targetMs` or up to `rate`
 * milliseconds after it, never before: a clock placed at the start of a day has just passed its midnight, never is about to.
 */
export function anchorReading(rate: number, realMs: number, targetMs: number): number {
  return rate === 1 ? 0 : Math.floor((rate * realMs - targetMs) / (rate - 1));
}

/**
 * The anchor at which a fast clock reads the start of a UTC day (the next one) at `realMs`: a run begun then has the
 * whole of the clock's day before its midnight (a day in 6 minutes at 240), whatever the hour of the wall clock. The
 * clock is ahead of the wall clock, as a fast clock anchored at the run's start soon is.
 */
export function anchorAtDayStart(rate: number, realMs: number): number {
  return anchorReading(rate, realMs, (Math.floor(realMs / DAY_MS) + 1) * DAY_MS);
}
