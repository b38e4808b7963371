/**
 * Keeps API keys out of everything written down: reports, traces, logs, recordings and curl commands.
 * A key is replaced by the name of the variable that holds it, so a reader can still reproduce the call.
 */
import { PLAN_IDS, type PlanId } from './plans.ts';
import { keyVariable, type KeysByPlan } from './keys.ts';

export const REDACTED = '<redacted>';

export function placeholderFor(plan: PlanId): string {
  return `$${keyVariable(plan)}`;
}

export class Redactor {
  private readonly replacements: Array<[string, string]>;

  constructor(keys: Readonly<KeysByPlan>) {
    // Longest first, so a key that contains another key is replaced whole.
    this.replacements = PLAN_IDS.flatMap((plan) => keys[plan].map((key): [string, string] => [key, placeholderFor(plan)]))
      .filter(([key]) => key.length > 0)
      .sort((a, b) => b[0].length - a[0].length);
  }

  /** The text with every known key replaced by its variable's name. */
  text(value: string): string {
    let result = value;
    for (const [key, placeholder] of this.replacements) result = result.split(key).join(placeholder);
    return result;
  }

  /** An Authorization header value safe to write down: known keys by variable, any other credential masked. */
  authorization(value: string): string {
    const replaced = this.text(value);
    if (replaced !== value) return replaced;
    const match = /^(\S+)(\s+)(.*)$/.exec(value);
    return match ? `${match[1]}${match[2]}${REDACTED}` : REDACTED;
  }

  /** Headers safe to write down. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const safe: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      safe[name] = lower === 'authorization' || lower === 'proxy-authorization' ? this.authorization(value) : this.text(value);
    }
    return safe;
  }
}
