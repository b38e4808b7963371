/** A load verdict: the check it reports, the rules that check serves, its status and what the run saw. */
import { breachStatus } from '../../../lib/verdicts/breach.ts';
import type { QuotaWindow } from '../windows.ts';
import type { CheckName } from '../../../lib/checks/registry.ts';

export type VerdictStatus = 'fail' | 'warn' | 'inconclusive' | 'pass' | 'observed' | 'not-checked';

/** Worst first: the status of a group of verdicts is the first of these any of them has. */
export const STATUS_ORDER: readonly VerdictStatus[] = ['fail', 'warn', 'inconclusive', 'pass', 'observed', 'not-checked'];

/** The check a verdict reports (lib/checks/registry.ts). */
export type CheckId = CheckName;

/** The checks that decide whether a plan's documented quota held. */
export const QUOTA_CHECKS: readonly CheckId[] = ['minute-max', 'first-refusal', 'daily-quota'];

export interface Verdict {
  check: CheckId;
  rules: string[];
  status: VerdictStatus;
  /** The rule as this run checks it, in a sentence. */
  title: string;
  /** What the run saw. */
  detail: string;
  /** Up to five concrete cases, e.g. the windows that broke it. */
  evidence: string[];
}

export interface WindowCheck {
  check: CheckId;
  status: VerdictStatus;
  message: string;
}

export interface JudgeContext {
  /** The keys were unused when the run began (a server this run started), so a day or window seen from the start is whole. */
  freshKeys: boolean;
  startedAtEpochMs: number;
  elapsedMs: number;
  /** The run's time scale (a minute lasts 60 s / timeScale): at short windows some checks judge less (short-windows.ts). */
  timeScale: number;
}

const MAX_EVIDENCE = 5;

export function worst(statuses: Iterable<VerdictStatus>): VerdictStatus {
  let index = STATUS_ORDER.length - 1;
  for (const status of statuses) index = Math.min(index, STATUS_ORDER.indexOf(status));
  return STATUS_ORDER[index] ?? 'not-checked';
}

export function describeWindow(window: QuotaWindow): string {
  const kind = window.windowClass === 'day' ? 'day window' : window.windowClass === 'minute' ? 'window' : `window (limit ${window.limit})`;
  return `${kind} ${window.number} (${seconds(window.firstSentAt)}–${seconds(window.lastDoneAt)} into the run, Reset ${new Date(window.reset * 1000).toISOString().slice(11, 19)} UTC)`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/**
 * A check's verdict. A broken rule ('fail' or 'warn' as found) is as grave as its rules' level makes it
 * (lib/verdicts/breach.ts): a GAP is only observed, a SHOULD warns, a MUST fails.
 */
export function verdict(check: CheckId, rules: string[], found: VerdictStatus, title: string, detail: string, evidence: string[] = []): Verdict {
  const breach = breachStatus(rules);
  const status = found === 'fail' ? breach : found === 'warn' && breach === 'observed' ? 'observed' : found;
  return { check, rules, status, title, detail, evidence: evidence.slice(0, MAX_EVIDENCE) };
}
