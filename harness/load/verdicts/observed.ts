/** What the spec leaves open, observed and never failed: a ban after repeated requests, and the kind of limiter. */
import { describeDuration } from '../duration.ts';
import type { KeyResult } from '../runner.ts';
import type { KeyAccount } from '../windows.ts';
import { rulesOf } from '../../../lib/checks/registry.ts';
import { KIND_MEANING } from '../../../lib/rate-limiter/kinds.ts';
import { largest } from '../../../lib/extremes.ts';
import { count, seconds, verdict, type Verdict } from './verdict.ts';

export function ban(result: KeyResult, account: KeyAccount): Verdict {
  const title = 'Repeated requests after a 429 may get the key banned for a while';
  const rules = rulesOf('ban');
  if (account.bans.length === 0) {
    const why =
      result.spec.behaviour === 'naive' && result.refused > 0
        ? `This naive client kept sending after ${count(result.refused, '429')}, and the target never refused it for longer than a window: no ban seen.`
        : result.spec.behaviour === 'naive'
          ? 'This naive client was never refused, so it could not provoke a ban.'
          : 'This compliant client waited as told and was never refused for longer than a window: no ban.';
    return verdict('ban', rules, 'observed', title, why);
  }
  const first = account.bans[0] as (typeof account.bans)[number];
  const lengths = account.bans.map((b) => (b.endedAt === undefined ? undefined : b.endedAt - b.startedAt)).filter((v): v is number => v !== undefined);
  const minuteMs = account.minuteLength.estimateMs;
  const inMinutes = minuteMs && first.announcedMs ? ` (about ${Math.round(first.announcedMs / minuteMs)} of the target's minutes)` : '';
  const detail = `${count(account.bans.length, 'ban')}: the first began ${seconds(first.startedAt)} into the run, at the ${ordinal(first.refusalsBefore + 1)} refusal in a row; the target asked to wait ${describeDuration(first.announcedMs)}${inMinutes}${lengths.length ? `, and admitted again after ${describeDuration(largest(lengths))}` : ''}. ${result.spec.behaviour === 'naive' ? 'This is the temporary ban the spec warns naive clients about.' : 'The client honoured Retry-After, yet was banned.'}`;
  return verdict(
    'ban',
    rules,
    result.spec.behaviour === 'naive' ? 'observed' : 'warn',
    title,
    detail,
    account.bans.map((b) => `${seconds(b.startedAt)}: ${count(b.refusals, 'ban-like refusal')}${b.endedAt !== undefined ? `, admitted again at ${seconds(b.endedAt)}` : ', still refused at the end of the run'}`),
  );
}

/** Which kind of limiter the answers showed, with the answers that showed it: where the spec is silent (RL-GAP-2). */
export function limiterKind(account: KeyAccount): Verdict {
  const { kind, stacked, evidence } = account.limiter;
  const title = 'What kind of rate limiter the target runs: windows fixed or sliding, a counter or a bucket';
  const what = kind === 'unknown' ? 'The answers did not show the kind of limiter' : `What the run saw fits ${KIND_MEANING[kind]}`;
  return verdict('limiter-kind', rulesOf('limiter-kind'), 'observed', title, `${what}${stacked ? ', with a minute and a day limiter stacked' : ''}.`, evidence);
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
