/**
 * Findings of the contract check every response gets that no test's own logic depends on, outside the rules they
 * belong to: the X-RateLimit-* headers (section "Limits / Rate limit response headers"), and the status field of
 * an Error body (ERR-2), which only ERR-2's own test reads. Such a finding fails the test it turns up in, but a test
 * that cites none of those rules reads nothing of them to decide anything, so it still checks its own rules whole.
 * The reporter then says so: a target whose Reset is malformed fails RL-7 once, and still gets a verdict on every
 * other rule instead of "not checked" on all of them.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { ruleById } from '../../lib/rules.ts';

/** The rule of an Error body's status field, which no other rule's test reads. */
const ERROR_STATUS_RULE = RULE['error-status'];

/** Rules about the X-RateLimit-* headers every response carries. */
export function isRateLimitHeaderRule(rule: string): boolean {
  return ruleById(rule).section === 'Limits / Rate limit response headers';
}

/** Whether a finding of `rule` leaves a test of `citedRules` checking them whole. */
export function isIncidental(rule: string, citedRules: readonly string[]): boolean {
  if (rule === ERROR_STATUS_RULE) return !citedRules.includes(ERROR_STATUS_RULE);
  return isRateLimitHeaderRule(rule) && citedRules.every((cited) => !ruleById(cited).section.startsWith('Limits / Rate limit'));
}
