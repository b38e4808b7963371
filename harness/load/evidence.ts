/**
 * A load run's evidence for a certificate (lib/verdicts/evidence.ts): per rule, what each of its checks found.
 * The checks that measure what a suite part measures carry that part's name, so a load run that used up a
 * key's day counts for PLAN-<plan>:day as the suite's daily-quota test would; the others are parts of their own
 * (`load:remaining-steps`), whose failures count in a certificate wherever they are.
 */
import { evidenceTarget, type PartEvidence, type ReportEvidence } from '../../lib/verdicts/evidence.ts';
import type { RuleVerdict } from '../../lib/verdicts/model.ts';
import type { CheckId, Verdict, VerdictStatus } from './verdicts/verdict.ts';

const SUITE_PARTS: Partial<Record<CheckId, string>> = { 'daily-quota': 'day', 'minute-max': 'minute', 'first-refusal': 'minute' };
const RESULT: Record<VerdictStatus, RuleVerdict> = { fail: 'fail', warn: 'warn', inconclusive: 'partly-checked', pass: 'pass', observed: 'observed', 'not-checked': 'not-run' };
/** Worst first, as a certificate reads a part: a failure anywhere, then what held, then what was not decided. */
const ORDER: readonly RuleVerdict[] = ['fail', 'warn', 'pass', 'observed', 'partly-checked', 'not-run'];

export function loadEvidence(verdicts: readonly Verdict[], baseUrl: string, startedAt: string, specVersion: string, label: string): ReportEvidence {
  const parts = new Map<string, PartEvidence>();
  for (const verdict of verdicts) {
    const part = SUITE_PARTS[verdict.check] ?? `load:${verdict.check}`;
    const result = RESULT[verdict.status];
    for (const rule of verdict.rules) {
      const key = `${rule}:${part}`;
      const earlier = parts.get(key);
      if (earlier && ORDER.indexOf(earlier.result) <= ORDER.indexOf(result)) continue;
      const checked = ['fail', 'warn', 'pass', 'observed'].includes(result);
      parts.set(key, { rule, part, result, checked, checkedAt: startedAt, ...(checked ? {} : { reason: verdict.detail }) });
    }
  }
  return { source: 'load', label, target: evidenceTarget(baseUrl), startedAt, specVersion, parts: [...parts.values()] };
}
