/** The rate-limit rules a 429 is held to (the shared response check, RL-* only), for both engines alike. */
import { checkResponse, type ResponseToCheck } from '../../lib/response-checks.ts';
import type { Finding } from './finding.ts';

/** `times`: how many 429s the generators counted with these headers (a summed engine's). */
export function noteRefusal(findings: Record<string, Finding>, response: ResponseToCheck, times = 1): void {
  for (const violation of checkResponse(response)) {
    if (!violation.rule.startsWith('RL-')) continue;
    const finding = (findings[violation.rule] ??= { count: 0, example: violation.message });
    finding.count += times;
  }
}
