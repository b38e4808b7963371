/**
 * The standard RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers), where a target sends
 * them beside X-RateLimit-*: compared with them answer by answer (lib/rate-limiter/standard-fields.ts) and reported
 * under RL-GAP-3, observed, never failed. Counted per answer, with the first of what they said and where they
 * first disagreed: bounded whatever the traffic's size.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { compareStandardFields } from '../../lib/rate-limiter/standard-fields.ts';
import type { RuleTallies } from './rule-tally.ts';

const STANDARD_FIELDS = RULE['standard-fields'];

export class StandardFieldsSeen {
  private firstSaid: string | undefined;
  private firstDisagreement: string | undefined;

  constructor(private readonly tallies: RuleTallies) {}

  /** One answer; only answers that carry X-RateLimit-* or the standard fields say anything of them. */
  add(number: number, headers: Readonly<Record<string, string | undefined>>, answeredAt: number, keyName: string | undefined): void {
    if (headers['x-ratelimit-limit'] === undefined && headers['ratelimit'] === undefined && headers['ratelimit-policy'] === undefined) return;
    this.tallies.judged(STANDARD_FIELDS, keyName);
    const compared = compareStandardFields(headers, answeredAt);
    if (compared.absent) {
      this.tallies.observed(STANDARD_FIELDS, 'no RateLimit or RateLimit-Policy field beside X-RateLimit-*');
      return;
    }
    this.firstSaid ??= `${compared.said} (exchange ${number})`;
    if (compared.disagreements.length === 0) {
      this.tallies.observed(STANDARD_FIELDS, 'RateLimit and RateLimit-Policy agree with X-RateLimit-*');
      return;
    }
    this.tallies.observed(STANDARD_FIELDS, 'RateLimit or RateLimit-Policy disagree with X-RateLimit-*');
    this.firstDisagreement ??= `${compared.disagreements.join('; ')} (exchange ${number})`;
  }

  /** The capture ended: what the fields said first, and where they first disagreed. */
  finish(): void {
    if (this.firstSaid) this.tallies.observed(STANDARD_FIELDS, `first carried: ${this.firstSaid}`);
    if (this.firstDisagreement) this.tallies.observed(STANDARD_FIELDS, `first disagreement: ${this.firstDisagreement}`);
  }
}
