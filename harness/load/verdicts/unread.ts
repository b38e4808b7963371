/**
 * Requests the target may have admitted whose answers were never read (QuotaWindow.unread: a timeout, a connection
 * error, a 5xx or an admission without the X-RateLimit headers): a window's counts may lack up to that many
 * admissions, and its Remaining values as many. A lost answer is no evidence, so what it can explain is not judged:
 * a refusal that came before the limit was seen admitted, a Remaining value skipped. What lost answers could only add
 * to still stands: more admitted than the limit, a Remaining said twice, a Remaining above the limit.
 */
import { countdownBreak } from '../../../lib/rate-limiter/countdown.ts';
import { count } from './verdict.ts';

/** What leaves a request the target may have admitted without an answer the client could read. */
export const UNREAD_CAUSES = 'timeouts, connections reset, requests sent again after one, 5xx or answers without X-RateLimit headers';

/** While what was counted was decided, and where what was lost may have been admitted. */
const WHILE = {
  window: ['while this window was open', 'in it'],
  bucket: ['while the bucket was being emptied', 'before the first 429'],
  day: ['before the cutoff came back', 'before it'],
} as const;

/**
 * Why counts short of what a rule asks are not judged, `unread` being how many answers were lost while the `counted` window or
 * bucket was deciding what was counted.
 */
export function unreadText(unread: number, counted: keyof typeof WHILE = 'window'): string {
  const [when, where] = WHILE[counted];
  return `${count(unread, 'request')} of this key got no readable answer ${when} (${UNREAD_CAUSES}): they may have been admitted ${where}`;
}

/** Fewer than `limit` admitted before a refusal, but no fewer than lost answers can account for. */
export function shortByUnread(admitted: number, limit: number, unread: number): boolean {
  return admitted < limit && admitted + unread >= limit;
}

/**
 * Remaining values (in any order) that count down one by one from no more than `highest` but for values skipped, no
 * more of them than `unread`: the skipped ones may have gone to the answers that were lost. A repeat, or a value
 * above `highest`, is never explained so.
 */
export function skippedByUnread(values: readonly number[], highest: number, unread: number): boolean {
  if (unread === 0 || countdownBreak(values, highest)?.kind !== 'skipped') return false;
  const sorted = [...values].sort((a, b) => b - a);
  let skipped = 0;
  for (let index = 1; index < sorted.length; index++) {
    const step = sorted[index - 1]! - sorted[index]!;
    if (step === 0) return false;
    skipped += step - 1;
  }
  return skipped <= unread;
}
