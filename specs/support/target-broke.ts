/**
 * A measurement the target itself made impossible by breaking a rule (no rate-limit headers, a Remaining that
 * never falls, a Retry-After that does not work). That is a failure of the rule broken, never a skip: only
 * what the user chose may leave a rule unchecked.
 */
import type { Exchange } from './exchange.ts';
import type { RuleJudge } from './judge.ts';

export interface Broken {
  broken: { rule: string; message: string; evidence: Exchange };
}

export const brokenBy = (rule: string, message: string, evidence: Exchange): Broken => ({ broken: { rule, message, evidence } });

/** Fails the test with the rule the target broke, the exchange that shows it as evidence. */
export function failBroken(check: RuleJudge, { broken }: Broken): void {
  check.expect(false, broken.message, { rule: broken.rule, evidence: broken.evidence });
}
