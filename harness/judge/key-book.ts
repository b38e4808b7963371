/**
 * Keys are known by plan, as in every other command (PETSTORE_API_KEY_<PLAN>, the demo keys, or the
 * placeholder a recording wrote), and never kept in anything written: each gets a pseudonym that names its
 * plan and the order it was first seen in ("pro-2"), or "unknown-3" for a key of no known plan.
 */
import { parsePlaceholder, splitAuthorization, withDemoKeys } from '../har/credentials.ts';
import { keysFromEnv, planOfKey, type KeysByPlan } from '../../lib/keys.ts';
import type { PlanId } from '../../lib/plans.ts';
import type { KeyIdentity } from './exchange.ts';

export class KeyBook {
  private readonly known: KeysByPlan;
  private readonly byToken = new Map<string, KeyIdentity>();
  private readonly seen = new Map<string, number>();

  constructor(env: NodeJS.ProcessEnv) {
    this.known = withDemoKeys(keysFromEnv(env));
  }

  /** The key an Authorization header carries, with its scheme ("Bearer"). */
  fromAuthorization(value: string): { scheme: string; key: KeyIdentity } {
    const { scheme, token } = splitAuthorization(value);
    return { scheme, key: this.identify(token) };
  }

  /** A key a gateway already named (its own pseudonym), with the plan it gave, if any. */
  named(name: string, plan: PlanId | undefined): KeyIdentity {
    const known = this.byToken.get(`named:${name}`);
    if (known) return known;
    const identity: KeyIdentity = { pseudonym: name, plan };
    this.byToken.set(`named:${name}`, identity);
    return identity;
  }

  private identify(token: string): KeyIdentity {
    const earlier = this.byToken.get(token);
    if (earlier) return earlier;
    const placeholder = parsePlaceholder(token);
    let identity: KeyIdentity;
    if (placeholder?.kind === 'plan') identity = { pseudonym: `${placeholder.plan}-${placeholder.ordinal}`, plan: placeholder.plan };
    else if (placeholder?.kind === 'invalid') identity = { pseudonym: 'invalid', plan: undefined };
    else if (placeholder?.kind === 'unknown-plan') identity = { pseudonym: 'unknown-plan', plan: undefined };
    else {
      const plan = planOfKey(this.known, token);
      const group = plan ?? 'unknown';
      const ordinal = (this.seen.get(group) ?? 0) + 1;
      this.seen.set(group, ordinal);
      identity = { pseudonym: `${group}-${ordinal}`, plan };
    }
    this.byToken.set(token, identity);
    return identity;
  }
}
