/** A request sent once a 429's Retry-After passed is admitted (the check retry-after-admitted). */
import { describeDuration } from '../duration.ts';
import type { KeyResult } from '../runner.ts';
import type { SummedKey } from '../summed.ts';
import type { KeyAccount } from '../windows.ts';
import { rulesOf } from '../../../lib/checks/registry.ts';
import { count, seconds, verdict, type Verdict } from './verdict.ts';

export function retryAfterAdmitted(result: KeyResult, account: KeyAccount): Verdict {
  const title = 'A request sent after waiting the time Retry-After gave is admitted';
  const rules = rulesOf('retry-after-admitted');
  if (result.spec.behaviour === 'naive') return verdict('retry-after-admitted', rules, 'not-checked', title, 'This client is naive: it does not wait after a 429, so it cannot check this.');
  // A wait after a failure of the target (no answer, a 5xx) was the client's own backoff: no 429 asked for it.
  const waitedOut = result.observations.map((observation, index) => ({ observation, index })).filter(({ observation }) => observation.retry?.after === 'refusal' && observation.outcome !== 'error');
  // A retry after a 429 that gave no Retry-After waited the client's own backoff, not a time the target gave (RL-1 fails that 429).
  const retries = waitedOut.filter(({ observation }) => observation.retry?.retryAfterMs !== undefined);
  if (retries.length === 0 && waitedOut.length > 0) return verdict('retry-after-admitted', rules, 'not-checked', title, `The ${count(waitedOut.length, '429')} the client waited out gave no Retry-After (RL-1): no time to wait was given, so no retry tells whether it was enough.`);
  if (retries.length === 0) return verdict('retry-after-admitted', rules, 'not-checked', title, 'The client never had to wait out a 429 (or the run ended during the wait).');
  const refused = retries.filter(({ observation }) => observation.outcome === 'refused');
  const dayCut = refused.filter(({ observation }) => observation.limit !== undefined && account.windows.some((w) => w.windowClass === 'day' && w.limit === observation.limit));
  const banned = refused.filter(({ index }) => account.banLike.has(index));
  const failures = refused.filter((entry) => !dayCut.includes(entry) && !banned.includes(entry));
  const describe = ({ observation }: { observation: (typeof retries)[number]['observation'] }): string =>
    `${seconds(observation.sentAt)} into the run, after waiting ${describeDuration(observation.retry?.waitedMs ?? 0)} (Retry-After ${observation.retry?.retryAfterMs === undefined ? 'absent' : describeDuration(observation.retry.retryAfterMs)}): ${observation.status}`;
  if (failures.length > 0) {
    return verdict('retry-after-admitted', rules, 'fail', title, `${count(failures.length, 'retry', 'retries')} of ${retries.length} sent after the wait were refused again.`, failures.map(describe));
  }
  if (banned.length > 0) {
    return verdict('retry-after-admitted', rules, 'warn', title, `${count(banned.length, 'retry', 'retries')} after an honoured Retry-After met a ban.`, banned.map(describe));
  }
  const admitted = retries.length - refused.length;
  return verdict(
    'retry-after-admitted',
    rules,
    'pass',
    title,
    `${count(admitted, 'request')} sent after waiting Retry-After ${admitted === 1 ? 'was' : 'were'} admitted${dayCut.length ? ` (${dayCut.length} refused because the day's quota was spent, as expected)` : ''}.`,
  );
}

/**
 * From a generator's sums: each generator marks the requests its client sent after waiting out a 429 and counts how
 * they were answered, so a refused retry is seen without the order of the window's other answers.
 */
export function retryAfterAdmittedFromSums(result: KeyResult, summed: SummedKey): Verdict {
  const title = 'A request sent after waiting the time Retry-After gave is admitted';
  const rules = rulesOf('retry-after-admitted');
  const { sent, refused, refusedByDay, refusedInBan } = summed.retries;
  if (result.spec.behaviour === 'naive') return verdict('retry-after-admitted', rules, 'not-checked', title, 'This client is naive: it does not wait after a 429, so it cannot check this.');
  if (sent === 0) return verdict('retry-after-admitted', rules, 'not-checked', title, 'The client never had to wait out a 429 (or the run ended during the wait).');
  if (refused > 0) return verdict('retry-after-admitted', rules, 'fail', title, `${count(refused, 'retry', 'retries')} of ${sent} sent after the wait were refused again, in windows of the minute limit.`);
  if (refusedInBan > 0) return verdict('retry-after-admitted', rules, 'warn', title, `${count(refusedInBan, 'retry', 'retries')} after an honoured Retry-After met a ban.`);
  const admitted = sent - refusedByDay;
  return verdict('retry-after-admitted', rules, 'pass', title, `${count(admitted, 'request')} sent after waiting Retry-After ${admitted === 1 ? 'was' : 'were'} admitted${refusedByDay ? ` (${refusedByDay} refused because the day's quota was spent, as expected)` : ''}.`);
}
