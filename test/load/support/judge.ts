import { followDays } from '../../../harness/load/days.ts';
import type { KeyResult } from '../../../harness/load/runner.ts';
import { judgeKey } from '../../../harness/load/verdicts/judge-key.ts';
import type { CheckId, Verdict } from '../../../harness/load/verdicts/verdict.ts';
import { accountKey, type KeyAccount } from '../../../harness/load/windows.ts';
import { SIMULATION_START } from './simulate.ts';

export interface Judged {
  account: KeyAccount;
  verdict(check: CheckId): Verdict;
  failed: CheckId[];
}

/** The verdicts of a (simulated) key as a live run would give them, with the keys fresh at the start. */
export function judge(result: KeyResult, startedAtEpochMs = SIMULATION_START): Judged {
  const account = accountKey(result.observations, result.spec.plan, startedAtEpochMs);
  const days = followDays(result.observations, result.spec.plan, startedAtEpochMs, account.banLike);
  const elapsedMs = result.observations.at(-1)?.doneAt ?? 0;
  const { verdicts } = judgeKey(result, account, days, { freshKeys: true, startedAtEpochMs, elapsedMs });
  return {
    account,
    verdict(check) {
      const found = verdicts.find((v) => v.check === check);
      if (!found) throw new Error(`no verdict ${check}; have ${verdicts.map((v) => v.check).join(', ')}`);
      return found;
    },
    failed: verdicts.filter((v) => v.status === 'fail').map((v) => v.check),
  };
}
