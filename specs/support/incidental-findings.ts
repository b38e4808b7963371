/**
 * Findings of the contract check every response gets that no test's own logic depends on outside the
 * rate-limit rules: the X-RateLimit-* headers (section "Limits / Rate limit response headers"). Such a finding
 * fails the test it turns up in, but a test that cites no rate-limit rule reads none of those headers to decide
 * anything, so it still checks its own rules whole. The reporter then says so: a target whose Reset is malformed
 * fails RL-7 once, and still gets a verdict on every other rule instead of "not checked" on all of them.
 */
import { ruleById } from '../../lib/rules.ts';

/** Rules about the X-RateLimit-* headers every response carries. */
export function isRateLimitHeaderRule(rule: string): boolean {
  return ruleById(rule).section === 'Limits / Rate limit response headers';
}

/** Whether a finding of `rule` leaves a test of `citedRules` checking them whole. */
export function isIncidental(rule: string, citedRules: readonly string[]): boolean {
  return isRateLimitHeaderRule(rule) && citedRules.every((cited) => !ruleById(cited).section.startsWith('Limits / Rate limit'));
}
