/**
 * The minute window of each plan's key, measured once and judged by every rule it can show (measure once, judge
 * many: specs/support/shared-minute.ts). One fresh window is filled with the plan's minute quota at once and one
 * request more is sent: exactly the documented number admitted, the next refused with 429 and Retry-After, and
 * the headers consistent throughout. On the cheapest plan's key the measurement goes on after its 429: the
 * request after its Retry-After (RL-3), requests one at a time in the window that opens (RL-6, RL-7), and a
 * second key's requests in between (RL-GAP-1). The count is what the target admitted and refused, so it stands
 * when a header rule fails in the same test.
 *
 * The tests of this file share the measurements, so they run in one worker, in order: the first to ask measures
 * under its own key lease, the others judge what it kept.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { TestInfo } from '@playwright/test';
import { plans, type PlanId, type Quota } from '../../lib/plans.ts';
import { measureMinuteWindow } from '../support/minute-window.ts';
import { answer, objectIn, show } from '../support/pets.ts';
import { brokenPromiseOneAtATime } from '../support/remaining-promise.ts';
import { judgeCountdown, judgeQuota, movedReset } from '../support/window-verdicts.ts';
import { afterBurst, measuredOnce, ON_SECOND_KEY, unlimitedAfter, type SharedMinute } from '../support/shared-minute.ts';
import { rule, test, type KeyLeasing, type Target } from '../support/test.ts';
import { describesMinuteWindow, isAdmitted, MINUTE_WINDOW_MS, readingOf, stepsFromFresh, windowKind, type Reading } from '../support/window-analysis.ts';
import { KIND_MEANING, type LimiterKind } from '../../lib/rate-limiter/kinds.ts';
import { recogniseLimiter, type RecogniseOptions } from '../../lib/rate-limiter/recognise.ts';
import { remainingStepProblem, resetMovedText } from '../../lib/rate-limiter/steps.ts';
import { windowOfLimit } from '../../lib/rate-limiter/window-of-limit.ts';
import { article, cheapestPlan, count, ENTERPRISE_NOT_AGREED, maxWindowWaitMs, MEASURED_PLANS, planRule, quotaInRun, quotaOf, quotaWords } from '../support/plan-quotas.ts';

test.describe.configure({ mode: 'default' });

/** The plan's minute window, measured by the first test of this worker to ask (see shared-minute.ts). */
function measureOnce(plan: PlanId, quota: Quota, { keys, target }: { keys: KeyLeasing; target: Target }, testInfo: TestInfo): Promise<SharedMinute> {
  return measuredOnce(plan, testInfo.repeatEachIndex, async () => {
    const client = await keys.measuring(plan);
    const window = await measureMinuteWindow(client, { quota, maxWaitMs: maxWindowWaitMs(testInfo.timeout, target.clock), alone: keys.alone });
    if (plan !== cheapestPlan(target.keys) || 'unavailable' in window) return { plan, quota, window };
    const first = (client.authorization ?? '').replace(/^Bearer /, '');
    const after = 'unlimited' in window ? await unlimitedAfter(client) : await afterBurst(client, window, quota, () => keys.another(plan, first));
    return { plan, quota, window, after };
  });
}

/** The cheapest plan's shared measurement; skips the test when the plan has no key or no window could be measured. */
async function cheapestMeasured(keys: KeyLeasing, target: Target, testInfo: TestInfo): Promise<SharedMinute & { window: Exclude<SharedMinute['window'], { unavailable: string }> }> {
  const plan = cheapestPlan(target.keys);
  if (typeof plan === 'object') test.skip(true, plan.skip);
  const shared = await measureOnce(plan as PlanId, quotaOf(plan as PlanId), { keys, target }, testInfo);
  if ('unavailable' in shared.window) test.skip(true, shared.window.unavailable);
  return shared as SharedMinute & { window: Exclude<SharedMinute['window'], { unavailable: string }> };
}

test(...rule('RL-3', 'a request sent after waiting the time a 429 Retry-After gave for a minute window is admitted', { also: ['RL-GAP-2', 'ERR-GAP-1', 'ERR-GAP-3'] }), async ({ keys, check, target }, testInfo) => {
  const { window: measured, after: continued, quota } = await cheapestMeasured(keys, target, testInfo);
  if ('unlimited' in measured) {
    check.expect(false, `expected a 429 once the minute quota was used up: ${measured.unlimited.message}`, { rule: RULE['refused-over-limit'], evidence: measured.unlimited.evidence });
    check.unchecked('the target refused nothing, so there was no Retry-After to wait for');
    return check.judgedWhole();
  }
  const { refusal, waitMs, notWaited, oneAtATime } = continued!;
  if (refusal === undefined) {
    check.unchecked(`the bucket gave tokens back as fast as the suite could spend them (up to ${count(measured.analysis.givenBack)} during the burst), so there was no Retry-After to wait for`);
    return check.judgedWhole();
  }
  if (!check.expect(refusal.response.status === 429, `expected a 429 after ${count(quota.perMinute)} requests in one window, got ${answer(refusal)}`, { rule: RULE['refused-over-limit'], evidence: refusal })) {
    check.unchecked(`request ${count(quota.perMinute + 1)} in one window was admitted, so there was no Retry-After to wait for`);
    return check.judgedWhole();
  }
  const header = refusal.response.headers['retry-after'];
  if (!check.expect(waitMs !== undefined, `expected a Retry-After to wait for, got ${header ?? 'none'}`, { rule: header === undefined ? RULE['retry-after-present'] : RULE['retry-after-format'], evidence: refusal })) {
    check.unchecked(`the 429 gave no Retry-After to wait for (${header ?? 'none'})`);
    return check.judgedWhole();
  }
  if (notWaited !== undefined) {
    check.unchecked(notWaited);
    return check.judgedWhole();
  }
  const after = oneAtATime[0]!;
  check.expect(isAdmitted(readingOf(after)), `expected the request sent ${waitMs} ms after the 429 (Retry-After: ${header}) to be admitted, got ${answer(after)}`, { evidence: after });
  check.judgedWhole();

  check.observe(`a 429 body: ${show(refusal.json ?? refusal.response.body)}`, RULE['refusal-body']);
  const code = objectIn(refusal)?.code;
  check.gist(typeof code === 'string' ? `code ${code.slice(0, 30)}` : 'no Error code', RULE['refusal-body']);
  // Provoking a ban takes a client that keeps sending while refused; the suite never does (the load script's naive client does).
  check.observe(
    `the suite sends nothing while refused, so it sees no ban: its 429 asked for ${waitMs} ms and the next request after that wait was ${after.response.status === 429 ? 'refused again' : 'admitted'}; \`npm run load\` with the naive client observes the ban`,
    RULE['ban'],
  );
  check.gist(after.response.status === 429 ? 'refused after the wait' : 'no ban seen', RULE['ban']);
  const retryAfterForm = `Retry-After as ${/^\s*\d+\s*$/.test(header ?? '') ? 'delta-seconds' : 'HTTP-date'}`;
  const back = readingOf(after);
  const limiter = recogniseLimiter([measured.probe, ...measured.burst, refusal, after].map(readingOf), limiterOptions(quota));
  const named = windowKind(back, quota) === 'day' ? `the day's window (Limit ${back.limit})` : windowKind(back, quota) === 'minute' ? 'the minute window' : `no documented window (Limit ${back.limit ?? 'absent'})`;
  check.observe(
    `${limiter.kind === 'unknown' ? 'the kind of limiter could not be told' : `what the run saw fits ${KIND_MEANING[limiter.kind]}`}${limiter.stacked ? ', with a minute and a day limiter stacked' : ''}: ${limiter.evidence.join('; ')}. Admitted responses' headers describe ${named}; Retry-After came as "${header}", and the request after it was ${isAdmitted(back) ? `admitted with ${back.remaining ?? 'no'} left` : 'refused'}`,
    RULE['limiter-kind'],
  );
  check.gist(`${limiter.kind}${limiter.stacked ? ', minute and day stacked' : ''}; ${retryAfterForm}`, RULE['limiter-kind']);
});

/** What the model needs to place a Limit: the plan's documented windows. */
function limiterOptions(quota: Quota): RecogniseOptions {
  return { windowOf: (limit) => windowOfLimit(limit, quota), minuteLimit: quota.perMinute, dayLimit: quota.perDay };
}

/** Limiters whose Remaining may rise before Reset, as their quota comes back bit by bit. */
const REFILLING: readonly LimiterKind[] = ['bucket', 'sliding-counter'];

/** Every reading of the measurement, in the order the answers were sent. */
function allReadings({ window, after }: SharedMinute): Reading[] {
  const burst = 'probe' in window ? [window.probe, ...window.burst, window.extra] : [];
  return [...burst, ...(after?.oneAtATime ?? [])].map(readingOf);
}

/**
 * The requests taken one at a time from the start of a window (after the 429's wait, or as they came on a key that
 * refused nothing), the step from each to the next, and whether the limiter gives its quota back bit by bit; or why
 * there are none.
 */
function oneAtATimeSteps(shared: SharedMinute): { readings: Reading[]; steps: ReturnType<typeof stepsFromFresh>; refills: boolean } | string {
  const readings = (shared.after?.oneAtATime ?? []).map(readingOf);
  if (readings.length < 2) return shared.after?.notWaited ?? 'the window that opened after the wait admitted fewer than two requests one at a time';
  const steps = stepsFromFresh(readings, describesMinuteWindow(readings[0]!, shared.quota), shared.quota);
  if (!steps.includes('same-window') && !steps.includes('refilling')) return 'every request one at a time fell in a new window: the windows are shorter than one request';
  return { readings, steps, refills: REFILLING.includes(recogniseLimiter(allReadings(shared), limiterOptions(shared.quota)).kind) };
}

test(...rule('RL-6', 'X-RateLimit-Remaining falls by one with each admitted request in a window'), async ({ keys, check, target }, testInfo) => {
  const shared = await cheapestMeasured(keys, target, testInfo);
  if ('analysis' in shared.window) judgeCountdown(shared.window, shared.quota, check, RULE['remaining-countdown']);
  const overstated = brokenPromiseOneAtATime(shared.after?.oneAtATime ?? [], shared.quota);
  check.expect(overstated === undefined, overstated?.message ?? '', { evidence: overstated?.evidence });
  const taken = oneAtATimeSteps(shared);
  if (typeof taken === 'string') {
    check.unchecked(`Remaining from one request to the next was not seen: ${taken}`);
    return check.judgedWhole();
  }
  const { readings, steps, refills } = taken;
  steps.forEach((step, index) => {
    const [before, after] = [readings[index]!, readings[index + 1]!];
    if (!isAdmitted(after) || (step !== 'same-window' && step !== 'refilling')) return;
    const problem = remainingStepProblem(before, after, MINUTE_WINDOW_MS, refills || step === 'refilling');
    check.expect(problem === undefined, problem ?? '', { evidence: shared.after!.oneAtATime[index + 1] });
  });
  check.judgedWhole();
});

test(...rule('RL-7', 'X-RateLimit-Reset is a Unix time in seconds that stays put within a window'), async ({ keys, check, target }, testInfo) => {
  const shared = await cheapestMeasured(keys, target, testInfo);
  if ('analysis' in shared.window) {
    const { analysis, burst, probe } = shared.window;
    check.expect(analysis.resetProblem === undefined, analysis.resetProblem ?? '', { evidence: movedReset(probe, burst) });
  }
  const taken = oneAtATimeSteps(shared);
  if (typeof taken === 'string') {
    check.unchecked(`Reset from one request to the next was not seen: ${taken}`);
    return check.judgedWhole();
  }
  const { readings, steps } = taken;
  steps.forEach((step, index) => {
    if (step === 'reset-moved') check.expect(false, resetMovedText(readings[index]!, readings[index + 1]!), { evidence: shared.after!.oneAtATime[index + 1] });
  });
  check.judgedWhole();
});

test(...rule('RL-GAP-1', 'whether limits are counted per key or per account'), async ({ keys, check, target }, testInfo) => {
  const { plan, after } = await cheapestMeasured(keys, target, testInfo);
  const perKey = after?.perKey;
  if (perKey === undefined || 'unavailable' in perKey) return test.skip(true, perKey?.unavailable ?? 'the measurement ended before a second key could be compared');
  const before = readingOf(perKey.before);
  const again = readingOf(perKey.again);
  if (before.reset !== again.reset || before.remaining === undefined || again.remaining === undefined) {
    return check.observe('the window ended during the observation; nothing can be said');
  }
  const fell = before.remaining - again.remaining;
  const shared = 1 + ON_SECOND_KEY;
  check.observe(
    fell === 1
      ? `two ${plans[plan].name} keys are counted apart: ${ON_SECOND_KEY} requests on one did not lower the other's Remaining (${before.remaining} → ${again.remaining} for its own request)`
      : fell === shared
        ? `two ${plans[plan].name} keys share one count (an account): ${ON_SECOND_KEY} requests on one lowered the other's Remaining by ${ON_SECOND_KEY} more (${before.remaining} → ${again.remaining})`
        : `the other key's Remaining went from ${before.remaining} to ${again.remaining} around ${ON_SECOND_KEY} requests on a second key`,
  );
  check.gist(fell === 1 ? 'per key' : fell === shared ? 'per account' : 'unclear');
});

for (const plan of MEASURED_PLANS) {
  const name = plans[plan].name;
  test(...rule(
    planRule(plan),
    `${article(name)} ${name} key is admitted exactly ${quotaWords(plan, (quota) => quota.perMinute, 'its agreed per-minute quota of')} requests in one minute window, and the next is refused with 429`,
    { also: ['RL-1', 'RL-2', 'RL-4', 'RL-6', 'RL-7'] }), async ({ keys, check, target }, testInfo) => {
      const quota = quotaInRun(plan, target.settings.enterpriseQuota);
      if (!quota) return test.skip(true, ENTERPRISE_NOT_AGREED);
      const { window: measured } = await measureOnce(plan, quota, { keys, target }, testInfo);
      if ('unavailable' in measured) return test.skip(true, measured.unavailable);
      if ('unlimited' in measured) {
        const { message, evidence } = measured.unlimited;
        check.expect(false, message, { evidence });
        check.expect(false, `expected a request beyond the minute quota to be answered 429, got none refused: ${message}`, { rule: RULE['refused-over-limit'], evidence });
        for (const rule of [RULE['retry-after-format'], RULE['rate-limit-headers-present'], RULE['remaining-countdown'], RULE['reset-stable']]) check.unchecked('the target refused nothing, so there was no window to measure and no 429 to read', rule);
        return check.judgedWhole();
      }
      // Not a finding about the target: the suite could not fill the window in time and measured again.
      for (const reason of measured.retaken) testInfo.annotations.push({ type: 'retaken', description: reason });
      judgeQuota(measured, quota, check);
      check.judgedWhole();
    },
  );
}
