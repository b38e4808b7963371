/**
 * The report's clients part: the keys whose client broke a client rule, each with its counts and its worst
 * case, then every other key summed in one line. Operators read it to find the integration about to get its
 * key banned; keys appear only by pseudonym.
 */
import { RULE } from '../../lib/checks/registry.ts';
import type { ClientRule, ClientStanding } from './client-exchange.ts';

/** A report names the worst offenders one by one; the rest are summed with the well-behaved. */
const MAX_NAMED = 10;

export function clientsPart(standings: readonly ClientStanding[], rule: ClientRule): string[] {
  const broke = standings.filter((standing) => broken(standing, rule));
  const named = broke.slice(0, MAX_NAMED);
  const rest = standings.filter((standing) => !named.includes(standing));
  const lines = named.map((standing) => `client of key ${standing.key} broke ${rule}: ${counts(standing, rule)}, of ${n(standing.requests)} requests and ${n(standing.refusals)} 429${standing.refusals === 1 ? '' : 's'}; worst: ${standing.worst[rule] ?? ''}`);
  if (rest.length > 0) {
    const requests = rest.reduce((sum, standing) => sum + standing.requests, 0);
    const refusals = rest.reduce((sum, standing) => sum + standing.refusals, 0);
    const alsoBroke = rest.filter((standing) => broken(standing, rule)).length;
    lines.push(`${named.length > 0 ? 'the other' : 'all'} ${n(rest.length)} key${rest.length === 1 ? '' : 's'}: ${n(requests)} requests, ${n(refusals)} 429${refusals === 1 ? '' : 's'}${alsoBroke > 0 ? `, ${n(alsoBroke)} of them breaking ${rule} too` : `, no breach of ${rule}`}`);
  }
  return lines;
}

function broken(standing: ClientStanding, rule: ClientRule): boolean {
  return rule === RULE['client-waits-retry-after'] ? standing.unwaited > 0 : standing.bursts + standing.flatRuns > 0;
}

function counts(standing: ClientStanding, rule: ClientRule): string {
  if (rule === RULE['client-waits-retry-after']) return `${n(standing.unwaited)} 429s not waited out (${n(standing.earlyRequests)} requests sent before Retry-After passed)`;
  return [
    standing.bursts > 0 ? `${n(standing.bursts)} refused stretch${standing.bursts === 1 ? '' : 'es'} sent into more than once` : '',
    standing.flatRuns > 0 ? `${n(standing.flatRuns)} run${standing.flatRuns === 1 ? '' : 's'} of refusals retried without growing waits` : '',
  ].filter(Boolean).join(', ');
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
