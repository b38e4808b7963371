/** The rate-limit rules a 429 is held to (the shared response check, RL-* only), for both engines alike. */
import { checkResponse, type ResponseToCheck } from '../../lib/response-checks.ts';
import type { Violation } from '../../lib/violation.ts';
import type { Finding } from './finding.ts';

export function noteRefusal(findings: Record<string, Finding>, response: ResponseToCheck): void {
  noteViolations(findings, checkResponse(response));
}

/** `times`: how many 429s broke each rule so (a summed engine's count of them). */
export function noteViolations(findings: Record<string, Finding>, violations: readonly Violation[], times = 1): void {
  for (const violation of violations) {
    if (!violation.rule.startsWith('RL-')) continue;
    const finding = (findings[violation.rule] ??= { count: 0, example: violation.message });
    finding.count += times;
  }
}
