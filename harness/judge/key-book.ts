/**
 * Keys are known by plan, as in every other command (PETSTORE_API_KEY_<PLAN>, the demo keys, or the
 * placeholder a recording wrote), and never kept in anything written: each gets a pseudonym that names its
 * plan and the order it was first seen in ("pro-2"), or "unknown-3" for a key of no known plan: every key of
 * no known plan has one of its own, never one shared. Every credential the book reads, configured or not, is
 * learnt by its redactor, so an answer that echoes it ("key … is not valid") shows the pseudonym, never the key.
 */
import { parsePlaceholder, presentedCredential, withDemoKeys } from '../../lib/capture/credentials.ts';
import { keysFromEnv, planOfKey, type KeysByPlan } from '../../lib/keys.ts';
import type { PlanId } from '../../lib/plans.ts';
import { REDACTED, Redactor } from '../../lib/redact.ts';
import { looksLikeKey } from '../../lib/credential-shape.ts';
import type { CredentialForm, KeyIdentity } from '../../lib/capture/exchange.ts';

export interface ReadCredential {
  form: CredentialForm;
  /** The key, when sent as a bearer token the capture holds (not one a gateway left out as <redacted>). */
  key: KeyIdentity | undefined;
  /** The header as evidence may show it. */
  shown: string;
}

/**
 * Names a gateway may write for "a key I cannot name" (the how-to's map default, nginx's "-"): read as no name,
 * so that every such key is not merged into one.
 */
const NO_NAME = /^(unknown|-|none|null)$/i;

export class KeyBook {
  private readonly known: KeysByPlan;
  private readonly byToken = new Map<string, KeyIdentity>();
  private readonly seen = new Map<string, number>();
  /**
   * Each name a gateway gave a key, with what it names (null: none), read once: a log names the same keys on every
   * line, and reading a name again (a pseudonym written out, three tests of its shape) cost each line.
   */
  private readonly byName = new Map<string, KeyIdentity | null>();
  /** What keeps these keys, those the capture sent, and anything else that looks like a credential, out of a report. */
  readonly redactor: Redactor;

  constructor(env: NodeJS.ProcessEnv) {
    this.known = withDemoKeys(keysFromEnv(env));
    this.redactor = new Redactor(this.known);
  }


  /** What an Authorization header presents: a key only in the spec's form, `Bearer <key>`. */
  read(value: string): ReadCredential {
    const presented = presentedCredential(value);
    switch (presented.form) {
      case 'bearer': {
        const key = presented.token === REDACTED ? undefined : this.identify(presented.token);
        const form = presented.scheme === 'Bearer' ? 'bearer' : 'bearer-other-case';
        return { form, key, shown: `${presented.scheme} ${key ? `<key ${key.pseudonym}>` : REDACTED}` };
      }
      case 'other-scheme':
        if (/^basic$/i.test(presented.scheme)) for (const part of Buffer.from(presented.token, 'base64').toString('utf8').split(':')) this.redactor.learn(part);
        return { form: 'other-form', key: undefined, shown: `${presented.scheme} ${this.shown(presented.token)}` };
      case 'bare':
        return { form: 'other-form', key: undefined, shown: this.shown(presented.token) };
      case 'empty-bearer':
        return { form: 'empty-bearer', key: undefined, shown: value.trim() };
      case 'malformed':
        return { form: 'malformed', key: undefined, shown: REDACTED };
    }
  }

  /**
   * A key a gateway named (its own pseudonym), with the plan it gave, if any; undefined for a name that names
   * none. A key written there as it is (configured, or one that looks like a key) becomes its pseudonym, never
   * a name in the report: the same key the same pseudonym, whether named here or sent as a bearer token.
   */
  named(name: string, plan: PlanId | undefined): KeyIdentity | undefined {
    const known = this.byName.get(name);
    if (known !== undefined) return known ?? undefined;
    const identity = this.nameRead(name, plan);
    this.byName.set(name, identity ?? null);
    return identity;
  }

  /** A name as first met: what it names, for good (null: none), whatever plan later lines give it. */
  private nameRead(name: string, plan: PlanId | undefined): KeyIdentity | undefined {
    if (NO_NAME.test(name.trim())) return undefined;
    if (planOfKey(this.known, name) || parsePlaceholder(name) || looksLikeKey(name)) return this.identify(name, plan);
    return { pseudonym: name, plan };
  }

  /** A token sent in another form, as evidence shows it: a known key by its pseudonym, anything else redacted. */
  private shown(token: string): string {
    const known = this.byToken.get(token);
    if (known) return `<key ${known.pseudonym}>`;
    if (planOfKey(this.known, token) || parsePlaceholder(token)) return `<key ${this.identify(token).pseudonym}>`;
    this.redactor.learn(token);
    return REDACTED;
  }

  /** The key's identity, its plan known from configuration, a placeholder, or else as a gateway gave it. */
  private identify(token: string, givenPlan?: PlanId): KeyIdentity {
    const earlier = this.byToken.get(token);
    if (earlier) return earlier;
    const placeholder = parsePlaceholder(token);
    let identity: KeyIdentity;
    if (placeholder?.kind === 'plan') identity = { pseudonym: `${placeholder.plan}-${placeholder.ordinal}`, plan: placeholder.plan };
    else if (placeholder?.kind === 'invalid') identity = { pseudonym: 'invalid', plan: undefined };
    else if (placeholder?.kind === 'unknown-plan') identity = { pseudonym: placeholder.ordinal > 1 ? `unknown-plan-${placeholder.ordinal}` : 'unknown-plan', plan: undefined };
    else {
      const plan = planOfKey(this.known, token) ?? givenPlan;
      const group = plan ?? 'unknown';
      const ordinal = (this.seen.get(group) ?? 0) + 1;
      this.seen.set(group, ordinal);
      identity = { pseudonym: `${group}-${ordinal}`, plan };
    }
    this.byToken.set(token, identity);
    this.redactor.learn(token, `<key ${identity.pseudonym}>`);
    return identity;
  }
}
