import { followDays } from '../../../harness/load/days.ts';
import { RESULT_FORMAT } from '../../../harness/load/engine/result.ts';
import { runFromResult } from '../../../harness/load/engine/run-from-sums.ts';
import { clientPlan } from '../../../harness/load/engine/run-plan.ts';
import type { KeyResult } from '../../../harness/load/runner.ts';
import { judgeKey } from '../../../harness/load/verdicts/judge-key.ts';
import type { CheckId, Verdict } from '../../../harness/load/verdicts/verdict.ts';
import { accountKey, type KeyAccount } from '../../../harness/load/windows.ts';
import { minuteAtScaleMs } from '../../../harness/load/verdicts/short-windows.ts';
import { SIMULATION_START } from './simulate.ts';
import { sumsOfAnswers } from './sums-of-answers.ts';

export interface Judged {
  account: KeyAccount;
  verdict(check: CheckId): Verdict;
  failed: CheckId[];
  warned: CheckId[];
}

/**
 * The verdicts of a (simulated) key as a live run would give them, with the keys fresh at the start; `timeScale`: the
 * run's, as the load command is told it (1 unless a test says otherwise).
 */
export function judge(result: KeyResult, startedAtEpochMs = SIMULATION_START, timeScale = 1): Judged {
  const account = accountKey(result.observations, result.spec.plan, startedAtEpochMs, minuteAtScaleMs(timeScale));
  const days = followDays(result.observations, result.spec.plan, startedAtEpochMs, account.banLike);
  const elapsedMs = result.observations.at(-1)?.doneAt ?? 0;
  const { verdicts } = judgeKey(result, account, days, { freshKeys: true, startedAtEpochMs, elapsedMs, timeScale });
  return judged(account, verdicts);
}

/**
 * The same key's verdicts through the Locust engine's path: its answers summed as `generators` generators ship them
 * (sumsOfAnswers; with several, the requests dealt out in turn, each generator summing its own), read back as the
 * sums they are (runFromResult), and judged from those sums.
 */
export function judgeSummed(result: KeyResult, startedAtEpochMs = SIMULATION_START, generators = 1, timeScale = 1): Judged {
  const names = Array.from({ length: generators }, (_, index) => `generator ${index + 1}`);
  const sums = names.map((_, generator) => sumsOfAnswers(result.observations.filter((_, index) => index % generators === generator), startedAtEpochMs));
  const [windows, loose, latency] = [sums.flatMap((sum) => sum.windows), sums.flatMap((sum) => sum.loose), sums.flatMap((sum) => sum.latency)];
  const durationS = Math.ceil((result.observations.at(-1)?.doneAt ?? 0) / 1000);
  const plan = { scenario: 'summed', baseUrl: 'http://127.0.0.1:1/v1', durationS, usersPerKey: 1, timeScale, seed: 1, client: clientPlan(), keys: [] };
  const run = runFromResult({ format: RESULT_FORMAT, generators: names, heldBack: [], windows, loose, latency }, [result.spec], plan);
  const key = run.keys[0]!;
  const account = key.summed!.account;
  const { verdicts } = judgeKey(key, account, key.summed!.days, { freshKeys: true, startedAtEpochMs: run.startedAtEpochMs, elapsedMs: run.elapsedMs, timeScale });
  return judged(account, verdicts);
}

function judged(account: KeyAccount, verdicts: readonly Verdict[]): Judged {
  return {
    account,
    verdict(check) {
      const found = verdicts.find((v) => v.check === check);
      if (!found) throw new Error(`no verdict ${check}; have ${verdicts.map((v) => v.check).join(', ')}`);
      return found;
    },
    failed: verdicts.filter((v) => v.status === 'fail').map((v) => v.check),
    warned: verdicts.filter((v) => v.status === 'warn').map((v) => v.check),
  };
}
