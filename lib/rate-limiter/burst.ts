/**
 * A window measured at once: a probe that found it fresh, the rest of its quota sent together, and one request
 * more. Under concurrency answers come in any order, so Remaining and Reset are judged as sets: a fixed window or
 * a sliding log hands out each value from just below the probe's down once, under one Reset; a bucket may also
 * move Reset forward to when it is full again, and give back as many tokens as its refill allows in the time
 * the burst took (refill.ts), on one of which the request after the burst may be admitted.
 *
 * Two limiters (a minute's and a day's) may each name themselves in the headers when they bind, and which binds
 * can change mid-burst: a bucket whose minute tokens come back leaves the day's count the lower one. So answers
 * are judged by the window their Limit names (binding-windows.ts), each against its own count.
 */
import { largest, smallest } from '../extremes.ts';
import { bindingWindows, type BindingWindow } from './binding-windows.ts';
import { countdownWords } from './countdown.ts';
import { isAdmitted, mayHaveEnded, MINUTE_WINDOW_MS, roundedApartBefore, ROUNDING_MS, sameEndRounded, type Reading } from './reading.ts';
import { refillAllowance } from './refill.ts';

export interface BurstInput {
  /** The request that found the window fresh (Remaining = Limit - 1, or the first admitted after a refusal waited out). */
  probe: Reading;
  /** The requests sent at once right after it. */
  burst: readonly Reading[];
  /** The one request sent after the burst had been answered. */
  extra: Reading;
  /**
   * The probe's headers describe the minute window: a window that ends during the burst shows in them. Otherwise
   * the window is known to hold only while the whole measurement lasts less than a documented minute from the
   * probe, which opened it.
   */
  headersTrusted?: boolean;
  /** The window the probe's Limit is counted over (target time); the documented minute by default. */
  windowMs?: number;
}

export type BurstAnalysis =
  | { kind: 'rolled-over'; reason: string }
  | {
      kind: 'measured';
      /** Admitted in the window, the probe included. */
      admitted: number;
      /** Burst requests refused. */
      refusedInBurst: number;
      extraRefused: boolean;
      /**
       * Tokens a bucket could have given back between the probe and the request after the burst (0 for windows that
       * give nothing back before Reset): that request may be admitted on one of them.
       */
      givenBack: number;
      /** Why the Remaining values of the admitted burst do not count down from the probe's. */
      remainingProblem: string | undefined;
      /** Why the Reset values of the admitted burst contradict the probe's. */
      resetProblem: string | undefined;
    };

export function analyseBurst({ probe, burst, extra, headersTrusted = true, windowMs = MINUTE_WINDOW_MS }: BurstInput): BurstAnalysis {
  const { reset, remaining } = probe;
  const admitted = burst.filter(isAdmitted);
  const windows = bindingWindows(probe, admitted, headersTrusted ? windowMs : undefined);
  const probeWindow = windows[0]!;
  const bucket = windows.some((window) => window.refillMs !== undefined);
  if (headersTrusted) {
    if (reset === undefined || remaining === undefined) return { kind: 'rolled-over', reason: 'the probe carried no readable X-RateLimit-* headers' };
    if (!bucket) {
      const later = [...burst, extra].find((reading) => showsLaterWindow(reading, reset, remaining));
      if (later) {
        return { kind: 'rolled-over', reason: `a response showed a new window (Reset ${later.reset}, Remaining ${later.remaining}) after the one ending at ${reset}` };
      }
      if (isAdmitted(extra) && extra.sentAt >= reset * 1000) {
        return { kind: 'rolled-over', reason: `the request after the burst was sent after the window's Reset (${reset})` };
      }
    }
  } else if (extra.sentAt - probe.sentAt >= MINUTE_WINDOW_MS - ROUNDING_MS) {
    return { kind: 'rolled-over', reason: `the measurement lasted ${seconds(extra.sentAt - probe.sentAt)} of the target's time, nearly a minute window, and the headers do not say where the window ends` };
  }
  const lastAnswer = largest([probe.receivedAt, ...admitted.map((reading) => reading.receivedAt)]);
  // Headers that do not name the minute leave its quota to what the measurement sends: the probe and the burst.
  const minuteLimit = (headersTrusted ? probe.limit : undefined) ?? 1 + burst.length;
  return {
    kind: 'measured',
    admitted: 1 + admitted.length,
    refusedInBurst: burst.length - admitted.length,
    extraRefused: !isAdmitted(extra),
    givenBack: minuteRefills(probeWindow, bucket, headersTrusted) ? refillAllowance(minuteLimit, windowMs, extra.receivedAt - probe.sentAt) : 0,
    remainingProblem: remaining === undefined ? undefined : countdownProblem(probe, windows, lastAnswer),
    resetProblem: reset === undefined ? undefined : probeWindow.refillMs !== undefined ? bucketResetProblem(probe, probeWindow.admitted) : resetProblem(reset, probeWindow.admitted),
  };
}

/**
 * Whether the minute window may have given tokens back for the request after the burst: it showed itself a bucket,
 * or it did not show its kind (its headers gave way to the day's at once, or never named it) while another window
 * of the same limiter did.
 */
function minuteRefills(probeWindow: BindingWindow, bucket: boolean, headersTrusted: boolean): boolean {
  if (headersTrusted && probeWindow.admitted.length > 0) return probeWindow.refillMs !== undefined;
  return bucket;
}

/**
 * Why the Remaining values of the admitted burst do not count down, each window's by its own count: the probe's
 * from the probe's Remaining, another's (whose headers took over mid-burst) from the highest it said. With one
 * window that gives nothing back, each value from just below the probe's down exactly once.
 */
function countdownProblem(probe: Reading, windows: readonly BindingWindow[], lastAnswer: number): string | undefined {
  const [probeWindow] = windows;
  if (windows.length === 1 && probeWindow!.refillMs === undefined) return remainingProblem(probe.remaining!, probeWindow!.admitted);
  const problems = windows.flatMap((window, index) => {
    if (window.admitted.length === 0) return [];
    const back = window.refillMs === undefined || window.limit === undefined ? 0 : refillAllowance(window.limit, window.refillMs, lastAnswer - probe.sentAt);
    const problem = index === 0 ? refilledRemainingProblem(probe.remaining!, window.admitted, back) : refilledRemainingProblem(undefined, window.admitted, back);
    if (problem === undefined) return [];
    return [windows.length === 1 ? problem : `under X-RateLimit-Limit ${window.limit}: ${problem}`];
  });
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** A reading that shows a later window than the one ending at `reset`, with `remaining` left. */
function showsLaterWindow(reading: Reading, reset: number, remaining: number): boolean {
  if (!isAdmitted(reading)) return false;
  const later = reading.reset !== undefined && reading.reset > reset;
  const refilled = reading.remaining !== undefined && reading.remaining > remaining;
  return (later || refilled) && mayHaveEnded(reset, reading.receivedAt);
}

/**
 * Under concurrency responses arrive in any order, but the admitted ones of a window that gives nothing back
 * must still have been handed Remaining values from just below the probe's down, each exactly once: with the
 * probe's own, a countdown from it (countdown.ts).
 */
export function remainingProblem(afterProbe: number, admitted: readonly Reading[]): string | undefined {
  const values = admitted.map((reading) => reading.remaining);
  if (values.some((value) => value === undefined)) return 'some admitted responses carried no readable X-RateLimit-Remaining';
  const broken = countdownWords([afterProbe, ...(values as number[])], afterProbe, `the probe's Remaining ${afterProbe}`);
  if (broken === undefined) return undefined;
  const range = admitted.length === 0 ? 'none' : `${afterProbe - 1} down to ${afterProbe - admitted.length}`;
  return `expected the ${admitted.length} admitted responses after Remaining ${afterProbe} to carry X-RateLimit-Remaining ${range}, each once; ${broken}`;
}

/**
 * A window that gave back up to `back` tokens during the burst (none: a window that gives nothing back before
 * Reset): served one at a time, its k-th answer left at most afterProbe - k + back tokens, so the k-th highest
 * Remaining of its admitted answers can be no higher. A window whose headers took over mid-burst has no probe:
 * its highest Remaining stands in, so no value may repeat more often than tokens came back.
 */
function refilledRemainingProblem(afterProbe: number | undefined, admitted: readonly Reading[], back: number): string | undefined {
  const values = admitted.map((reading) => reading.remaining);
  if (values.some((value) => value === undefined)) return 'some admitted responses carried no readable X-RateLimit-Remaining';
  const sorted = (values as number[]).sort((a, b) => b - a);
  const from = afterProbe ?? sorted[0]! + 1;
  const index = sorted.findIndex((value, i) => value > from - (i + 1) + back);
  if (index === -1) return undefined;
  const most = from - (index + 1) + back;
  const start = afterProbe === undefined ? `from the highest of them (${sorted[0]})` : `after Remaining ${afterProbe}`;
  const refill = back === 0 ? 'as a window that gives nothing back before Reset' : `at most ${back} higher as the bucket refilled during the burst`;
  return `expected the ${admitted.length} admitted responses ${start} to count down one per request, ${refill} (so no ${index + 1} of them above ${most}); got ${index + 1} with X-RateLimit-Remaining ${sorted[index]} or more`;
}

/**
 * The admitted burst's Resets against the probe's: one end, known only to its second (reading.ts). Answers decided
 * before the end may have come that name a Reset a second from the probe's, as two nodes round one end apart, name
 * it too, while the whole burst names no more than two Resets a second apart: a Reset that keeps moving still moved.
 */
export function resetProblem(reset: number, admitted: readonly Reading[]): string | undefined {
  const moved = admitted.filter((reading) => reading.reset !== reset);
  if (moved.length === 0) return undefined;
  const resets = [reset, ...moved.map((reading) => reading.reset ?? NaN)];
  const oneEnd = sameEndRounded(largest(resets), smallest(resets)) && moved.every((reading) => roundedApartBefore(reset, reading.reset ?? NaN, reading.receivedAt));
  if (oneEnd) return undefined;
  return `expected X-RateLimit-Reset to stay at ${reset} within the window, got ${list([...new Set(moved.map((reading) => String(reading.reset)))])}`;
}

/** A bucket's full time never goes back while tokens are spent: no admitted answer may give a Reset before the probe's. */
function bucketResetProblem(probe: Reading, admitted: readonly Reading[]): string | undefined {
  const earlier = admitted.filter((reading) => reading.reset! < probe.reset!);
  if (earlier.length === 0) return undefined;
  return `expected X-RateLimit-Reset to stay at ${probe.reset} or move forward to when the bucket is full again, got ${list([...new Set(earlier.map((reading) => String(reading.reset)))])}, earlier`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function list(items: readonly string[]): string {
  return items.length > 6 ? `${items.slice(0, 6).join(', ')} and ${items.length - 6} more` : items.join(', ');
}
