/**
 * The run as one plain object: what reports/load/summary.json holds and what the HTML page and the text
 * summary are drawn from. It names keys by plan and number only ("free #1"), never by value.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { keyVariable } from '../../lib/keys.ts';
import { plans, PLAN_IDS, type PlanId } from '../../lib/plans.ts';
import { catalogue, type Level } from '../../lib/rules.ts';
import { followDays, type DaySegment } from './days.ts';
import { describeRate } from './rate.ts';
import type { KeyCounts, RunResult } from './runner.ts';
import type { Behaviour, Mix, Scenario } from './scenario.ts';
import { timelineOf, type Timeline } from './timeline.ts';
import type { ResolvedTarget } from './target.ts';
import { withLostAnswers } from './lost-answers.ts';
import { judgeKey } from './verdicts/judge-key.ts';
import { minuteAtScaleMs } from './verdicts/short-windows.ts';
import { QUOTA_CHECKS, worst, type Verdict, type VerdictStatus, type WindowCheck } from './verdicts/verdict.ts';
import { accountKey, classOf, type Ban, type WindowClass, type WindowLength } from './windows.ts';
import { largest, smallest } from '../../lib/extremes.ts';
import type { ReportEvidence } from '../../lib/verdicts/evidence.ts';
import { loadEvidence } from './evidence.ts';

export interface WindowSummary {
  number: number;
  windowClass: WindowClass;
  limit: number;
  reset: number;
  resetAt: string;
  /** Seconds into the run. */
  from: number;
  to: number;
  sent: number;
  admitted: number;
  refused: number;
  errors: number;
  firstRefusalAt: number | undefined;
  checks: WindowCheck[];
}

export interface KeySummary extends KeyCounts {
  label: string;
  plan: PlanId;
  planName: string;
  keyNumber: number;
  /** Where the key came from, e.g. $PETSTORE_API_KEY_FREE (never the key). */
  keyVariable: string;
  behaviour: Behaviour;
  rate: string;
  perSecond: number | undefined;
  /** Arrivals the schedule offered and requests actually sent, per second of the run. */
  offeredPerSecond: number;
  sentPerSecond: number;
  mix: Mix;
  minuteWindow: WindowLength;
  status: VerdictStatus;
  quotaStatus: VerdictStatus;
  verdicts: Verdict[];
  windows: WindowSummary[];
  days: DaySegment[];
  bans: Ban[];
  errorExamples: string[];
  timeline: Timeline;
}

export interface PlanSummary {
  plan: PlanId;
  name: string;
  documented: { perMinute: number; perDay: number } | undefined;
  status: VerdictStatus;
  /** One sentence a newcomer can read: did the quota hold? */
  sentence: string;
  keys: string[];
}

export interface LoadSummary {
  /** schemas/load-summary.schema.json */
  format: 'petstore-load-summary';
  formatVersion: 1;
  tool: 'petstore-load';
  generatedAt: string;
  specVersion: string;
  status: 'pass' | 'fail';
  headline: string;
  target: { description: string; baseUrl: string; bundled: boolean; timeScale: number; timeScaleSource: string };
  scenario: { name: string; description: string; source: string; durationMs: number; concurrency: number };
  run: { startedAt: string; elapsedMs: number; stoppedEarly: string | undefined };
  plans: PlanSummary[];
  keys: KeySummary[];
  rules: Array<{ id: string; level: Level; rule: string; silent?: string }>;
  /** What the run checked, rule by rule, for a certificate (certify --evidence). */
  evidence: ReportEvidence;
}

/** What the summary tells of the target: a run's resolved target, or what an engine's result file recorded. */
export type JudgedTarget = Pick<ResolvedTarget, 'description' | 'baseUrl' | 'bundled' | 'timeScale' | 'timeScaleSource'>;

export function summarise(scenario: Scenario, target: JudgedTarget, run: RunResult): LoadSummary {
  const context = { freshKeys: target.bundled, startedAtEpochMs: run.startedAtEpochMs, elapsedMs: run.elapsedMs, timeScale: target.timeScale };
  const keys = run.keys.map((result): KeySummary => {
    const { spec } = result;
    const account = result.summed?.account ?? accountKey(result.observations, spec.plan, run.startedAtEpochMs, minuteAtScaleMs(target.timeScale));
    const days = result.summed ? result.summed.days : followDays(result.observations, spec.plan, run.startedAtEpochMs, account.banLike);
    const judgement = judgeKey(result, account, days, context);
    judgement.verdicts = withLostAnswers(judgement.verdicts, run.lostAnswers);
    const observedLimits = [...new Set(result.observations.flatMap((o) => (o.limit === undefined ? [] : [o.limit])))];
    const seconds = Math.max(0.001, run.elapsedMs / 1000);
    // A generator's errors are sums: counted in a window when all of them were sent within it.
    const summedErrors = (result.summed?.sentBetween ?? []).filter((sums) => sums.outcome === 'error');
    const errorsIn = (from: number, to: number): number =>
      result.observations.filter((o) => o.outcome === 'error' && o.sentAt >= from && o.sentAt <= to).length + summedErrors.filter((sums) => sums.from >= from && sums.to <= to).reduce((sum, sums) => sum + sums.count, 0);
    const quotaVerdicts = judgement.verdicts.filter((v) => QUOTA_CHECKS.includes(v.check) || v.check === 'custom-quota');
    return {
      label: spec.label,
      plan: spec.plan,
      planName: plans[spec.plan].name,
      keyNumber: spec.keyNumber,
      keyVariable: `$${keyVariable(spec.plan)}`,
      behaviour: spec.behaviour,
      rate: result.perSecond === undefined ? 'max' : `${round(result.perSecond)} req/s${spec.rate.kind === 'ofLimit' ? ` (${describeRate(spec.rate)})` : ''}`,
      perSecond: result.perSecond,
      offeredPerSecond: round((result.sent + result.heldBack) / seconds),
      sentPerSecond: round(result.sent / seconds),
      mix: spec.mix,
      sent: result.sent,
      admitted: result.admitted,
      refused: result.refused,
      errors: result.errors,
      heldBack: result.heldBack,
      statusCounts: result.statusCounts,
      latency: result.latency,
      minuteWindow: account.minuteLength,
      status: worst(judgement.verdicts.map((v) => v.status)),
      quotaStatus: worst(quotaVerdicts.map((v) => v.status)),
      verdicts: judgement.verdicts,
      windows: account.windows.map((window, index) => {
        const errors = errorsIn(window.firstSentAt, window.lastDoneAt);
        return {
          number: window.number,
          windowClass: window.windowClass,
          limit: window.limit,
          reset: window.reset,
          resetAt: new Date(window.reset * 1000).toISOString(),
          from: round(window.firstSentAt / 1000),
          to: round(window.lastDoneAt / 1000),
          sent: window.admitted + window.refused + errors,
          admitted: window.admitted,
          refused: window.refused,
          errors,
          firstRefusalAt: window.admittedBeforeFirstRefusal === undefined ? undefined : window.admittedBeforeFirstRefusal + 1,
          checks: judgement.windowChecks[index] ?? [],
        };
      }),
      days: days ?? [],
      bans: account.bans,
      errorExamples: result.errorExamples,
      timeline: timelineOf(result.observations, Math.max(run.elapsedMs, scenario.durationMs), (limit) => classOf(limit, spec.plan, observedLimits), result.summed?.sentBetween),
    };
  });

  const planSummaries = PLAN_IDS.filter((plan) => keys.some((key) => key.plan === plan)).map((plan) => planSummary(plan, keys.filter((key) => key.plan === plan)));
  const failing = keys.flatMap((key) => key.verdicts.filter((v) => v.status === 'fail').map((v) => ({ key, verdict: v })));
  const status = failing.length > 0 ? 'fail' : 'pass';
  const cited = new Set(keys.flatMap((key) => key.verdicts.flatMap((v) => v.rules)));
  return {
    format: 'petstore-load-summary',
    formatVersion: 1,
    tool: 'petstore-load',
    generatedAt: new Date().toISOString(),
    specVersion: catalogue.specVersion,
    status,
    headline: headline(planSummaries, failing.map(({ key, verdict }) => ({ label: key.label, verdict }))),
    target: { description: target.description, baseUrl: target.baseUrl, bundled: target.bundled, timeScale: target.timeScale, timeScaleSource: target.timeScaleSource },
    scenario: { name: scenario.name, description: scenario.description, source: scenario.source, durationMs: scenario.durationMs, concurrency: scenario.concurrency },
    run: { startedAt: new Date(run.startedAtEpochMs).toISOString(), elapsedMs: Math.round(run.elapsedMs), stoppedEarly: run.stoppedEarly },
    plans: planSummaries,
    keys,
    rules: catalogue.rules.filter((rule) => cited.has(rule.id)).map((rule) => ({ id: rule.id, level: rule.level, rule: rule.rule, ...(rule.silent ? { silent: rule.silent } : {}) })),
    evidence: loadEvidence(keys.flatMap((key) => key.verdicts), target.baseUrl, new Date(run.startedAtEpochMs).toISOString(), catalogue.specVersion, process.env.PETSTORE_RUN_LABEL?.trim() || 'load run'),
  };
}

function planSummary(plan: PlanId, keys: KeySummary[]): PlanSummary {
  const { name, documented } = plans[plan];
  const status = worst(keys.map((key) => key.quotaStatus));
  const verdictsOf = (check: string): Verdict[] => keys.flatMap((key) => key.verdicts.filter((v) => v.check === check));
  const base = { plan, name, documented, status, keys: keys.map((key) => key.label) };
  if (!documented) {
    return { ...base, sentence: `${name} quotas are custom (${RULE['enterprise-quota']}): observed, not judged. ${verdictsOf('custom-quota').map((v) => v.detail).join(' ')}` };
  }
  const minute = worst(verdictsOf('minute-max').concat(verdictsOf('first-refusal')).map((v) => v.status));
  const day = worst(verdictsOf('daily-quota').map((v) => v.status));
  const windows = keys.reduce((sum, key) => sum + key.windows.filter((w) => w.windowClass === 'minute').length, 0);
  const overWindows = keys.flatMap((key) => key.windows.filter((w) => w.checks.some((c) => c.check === 'minute-max' && c.status === 'fail')));
  // A window counted from sums has no request number for its first 429: it refused with fewer than its limit admitted.
  const earlyWindows = keys.flatMap((key) => key.windows.filter((w) => w.checks.some((c) => c.check === 'first-refusal' && c.status === 'fail') && (w.firstRefusalAt ?? w.admitted + 1) <= w.limit));
  const minuteText =
    minute === 'fail'
      ? `the per-minute quota of ${documented.perMinute} did NOT hold${overWindows.length ? ` (up to ${largest(overWindows.map((w) => w.admitted))} admitted in one window)` : earlyWindows.length ? ` (refused ${earlyWindows.every((w) => w.firstRefusalAt !== undefined) ? 'as early as' : 'by'} request ${smallest(earlyWindows.map((w) => w.firstRefusalAt ?? w.admitted + 1))} of a window)` : ''}`
      : minute === 'pass'
        ? `never more than ${documented.perMinute} admitted in a minute window (${windows} window${windows === 1 ? '' : 's'}${keys.length > 1 ? ` over ${keys.length} keys` : ''})${verdictsOf('first-refusal').some((v) => v.status === 'pass') ? `, and exactly ${documented.perMinute} whenever more were asked for` : ''}`
        : minute === 'inconclusive'
          ? `the per-minute quota could not be judged (windows shorter than a second)`
          : `the per-minute quota of ${documented.perMinute} was not reached, so not tested`;
  const dayText =
    day === 'fail'
      ? `the daily quota of ${documented.perDay.toLocaleString('en-US')} did NOT hold`
      : day === 'pass'
        ? `the daily quota of ${documented.perDay.toLocaleString('en-US')} held`
        : day === 'warn'
          ? `the daily cutoff came early (the key may have been used before)`
          : `the daily quota of ${documented.perDay.toLocaleString('en-US')} was not reached in this run`;
  const lead = status === 'fail' ? 'quota broken' : status === 'pass' ? 'quota held' : status === 'warn' ? 'quota held, with a warning' : 'nothing decisive';
  return { ...base, sentence: `${name}: ${lead}: ${minuteText}; ${dayText}.` };
}

function headline(planSummaries: PlanSummary[], failing: Array<{ label: string; verdict: Verdict }>): string {
  const documented = planSummaries.filter((plan) => plan.documented);
  const broken = documented.filter((plan) => plan.status === 'fail');
  if (broken.length > 0) return `Quota broken: ${broken.map((plan) => plan.name).join(', ')} did not hold ${broken.length === 1 ? 'its' : 'their'} documented quota.`;
  const others = failing.filter(({ verdict }) => !QUOTA_CHECKS.includes(verdict.check));
  const held = documented.filter((plan) => plan.status === 'pass' || plan.status === 'warn');
  const heldText = held.length ? `${held.map((plan) => plan.name).join(', ')}: documented quota held` : 'No documented quota was reached';
  if (others.length > 0) return `${heldText}, but the rate-limit answers broke ${[...new Set(others.flatMap(({ verdict }) => verdict.rules))].join(', ')}.`;
  const untested = documented.filter((plan) => plan.status !== 'pass' && plan.status !== 'warn');
  return `${heldText}.${untested.length ? ` Not decisive for ${untested.map((plan) => plan.name).join(', ')}.` : ''}`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
