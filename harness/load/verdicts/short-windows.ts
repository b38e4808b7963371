/**
 * Time scales whose minute is shorter than Reset's whole-second rounding plus the clock slack (RUN_SLACK_MS: 2 s, so
 * scales above 30). There no admission comes back firmly before its Reset, a refused client's whole-second wait
 * (Retry-After) carries it past the Reset it was refused under, and a limiter giving quota back (a sliding log, a
 * bucket) does so within the last second before a whole-second Reset, which is most of such a window: that nothing was
 * seen admitted after a refusal under one Reset no longer shows fixed windows. The checks that lean on it (the quota
 * counted under one Reset, where the first 429 came, the countdown of Remaining) judge there only what no kind of
 * limiter explains: more than the limit admitted within one minute of a window's first request (withinOneMinute).
 */
import { MINUTE_WINDOW_MS } from '../../../lib/rate-limiter/reading.ts';
import { RUN_SLACK_MS } from '../windows.ts';
import { seconds, type CheckId } from './verdict.ts';

/** One minute at `timeScale` (ms of real time). */
export function minuteAtScaleMs(timeScale: number): number {
  return MINUTE_WINDOW_MS / timeScale;
}

/** The time scale, when its windows are too short for the fixed model to be told (see above); else undefined. */
export function shortWindowScale(timeScale: number): number | undefined {
  return minuteAtScaleMs(timeScale) < RUN_SLACK_MS ? timeScale : undefined;
}

/** Why a check is left unjudged at such a scale. */
export function shortWindowsText(timeScale: number): string {
  return `windows of ${(minuteAtScaleMs(timeScale) / 1000).toFixed(1)} s at time scale ${timeScale} are shorter than the Reset rounding plus the clock slack (${seconds(RUN_SLACK_MS)}): whether admissions under one Reset crossed a window cannot be told`;
}

/** "within one window (1.3 s at time scale 45) of its first request". */
export function withinWindowText(timeScale: number): string {
  return `within one window (${(minuteAtScaleMs(timeScale) / 1000).toFixed(1)} s at time scale ${timeScale}) of its first request`;
}

/** The checks only partly judged at such a scale. */
const PARTLY_JUDGED: readonly CheckId[] = ['minute-max', 'first-refusal', 'remaining-steps'];

/** The line a run at such a scale is told before it starts (stderr), or undefined at a scale whose windows are long enough. */
export function shortWindowsNotice(timeScale: number): string | undefined {
  if (shortWindowScale(timeScale) === undefined) return undefined;
  return `Note: ${shortWindowsText(timeScale)}, so the minute quota and Remaining's countdown (${PARTLY_JUDGED.join(', ')}) fail only on what came back within one window of a window's first request, and are not checked beyond it; use a time scale of 30 or less to judge them whole.`;
}
