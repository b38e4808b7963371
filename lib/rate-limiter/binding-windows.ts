/**
 * The answers of one burst by the window their X-RateLimit-Limit names. A server with a minute and a day limiter
 * names the one that binds, and that can change mid-burst: a bucket's minute tokens come back while the day's
 * hardly do, so the day's count becomes the lower one. Each window counts its own requests, and gives back
 * tokens by its own refill: a bucket is told by its Reset, which moves on, as tokens are spent, to when it is
 * full again (refill.ts).
 */
import { DAY_WINDOW_MS, type Reading } from './reading.ts';
import { bucketWindowBounds, fullAtReset } from './refill.ts';

export interface BindingWindow {
  limit: number | undefined;
  /** The admitted answers of the burst that named it, the probe not among them. */
  admitted: Reading[];
  /**
   * How long the window takes to refill whole, when its answers show a bucket; undefined when they do not. Where
   * the run does not know it, the shortest that fits every Reset: the one that gives back the most.
   */
  refillMs: number | undefined;
}

/**
 * The probe's window first, then the others in the order their first answer was sent. An answer that names no
 * Limit is counted in the probe's window: it names no other. `probeWindowMs`: how long the probe's window is,
 * when its headers are known to describe the documented minute.
 */
export function bindingWindows(probe: Reading, admitted: readonly Reading[], probeWindowMs: number | undefined): BindingWindow[] {
  const byLimit = new Map<number | undefined, Reading[]>([[probe.limit, []]]);
  for (const reading of [...admitted].sort((a, b) => a.sentAt - b.sentAt)) {
    const limit = reading.limit ?? probe.limit;
    const answers = byLimit.get(limit);
    if (answers) answers.push(reading);
    else byLimit.set(limit, [reading]);
  }
  return [...byLimit].map(([limit, answers]) => {
    const withProbe = limit === probe.limit ? [probe, ...answers] : answers;
    const refillMs = limit === probe.limit && probeWindowMs !== undefined ? knownRefill(probe, answers, probeWindowMs) : learnedRefill(withProbe);
    return { limit, admitted: answers, refillMs };
  });
}

/** A window of known length is a bucket when Reset moved and every Reset is when a bucket of it is full again. */
function knownRefill(probe: Reading, answers: readonly Reading[], windowMs: number): number | undefined {
  const moved = answers.some((reading) => reading.reset !== probe.reset);
  return moved && [probe, ...answers].every((reading) => fullAtReset(reading, windowMs)) ? windowMs : undefined;
}

/** A window of unknown length is a bucket when Reset moved and one refill time, a day at most, fits every Reset. */
function learnedRefill(readings: readonly Reading[]): number | undefined {
  if (new Set(readings.map((reading) => reading.reset)).size < 2) return undefined;
  const bounds = bucketWindowBounds(readings, DAY_WINDOW_MS);
  return bounds === undefined || bounds.atLeastMs <= 0 ? undefined : bounds.atLeastMs;
}
