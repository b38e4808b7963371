/**
 * A key's answers as a generator's per-window sums (Locust's workers ship them): how many of each kind under each
 * Limit and Reset, their Remaining values, and when the first and last of each kind left and came back, but not
 * the order of the answers within a window. The verdicts judge from it what the sums show, and say "not checked"
 * where a check needs that order (lib/checks/registry.ts, unmetNeeds).
 */
import type { Uses } from '../../lib/checks/registry.ts';
import type { DaySegment } from './days.ts';
import type { SentBetween } from './timeline.ts';
import type { KeyAccount } from './windows.ts';

/** Why a check that needs the order of answers is left unjudged on sums. */
export const SUMS_INPUT = 'Locust ships per-window sums; order within a window is not measured';

/** What per-window sums carry of the accountant's needs. */
export const SUMS_CARRY: ReadonlySet<Uses> = new Set<Uses>(['firm counts per window', 'refusals with their headers']);

export interface SummedKey {
  account: KeyAccount;
  /** Undefined when which admissions came before the day's cutoff needs the order of answers. */
  days: DaySegment[] | undefined;
  /** A client's requests after waiting out a 429, as the generators marked them, and how they were answered. */
  retries: { sent: number; refused: number; refusedByDay: number; refusedInBan: number };
  /**
   * Reset moved back: an answer naming an earlier Reset of the same Limit was sent after one naming a later Reset
   * had come back. No kind of limiter does that (lib/rate-limiter/steps.ts), whatever the order within each window.
   */
  resetMovedBack: string[];
  /** Each window's admissions and refusals as counts sent between two times, for the run's chart. */
  sentBetween: SentBetween[];
}
