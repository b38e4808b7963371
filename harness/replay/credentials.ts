/**
 * Puts the target's keys where the capture has placeholders: `$PETSTORE_API_KEY_PRO` becomes the first key
 * in PETSTORE_API_KEY_PRO, `$PETSTORE_API_KEY_PRO#2` the second, `$PETSTORE_INVALID_KEY` a key no server
 * accepts. A capture made elsewhere may carry literal keys; one the replayer knows (a configured or demo
 * key) is exchanged for the target's key of the same plan, and one it does not know stops the replay before
 * anything is sent, since its plan, and so what the target should answer, is unknown.
 */
import { DEMO_KEYS, keyVariable, planOfKey, type KeysByPlan } from '../../lib/keys.ts';
import { plans, type PlanId } from '../../lib/plans.ts';
import { parsePlaceholder, splitAuthorization, withDemoKeys } from '../../lib/capture/credentials.ts';
import { InputError } from '../../lib/cli/command-line.ts';
import type { CredentialUse } from './survey.ts';

/** What replay sends for a credential the upstream refused: a well-formed key that no server issues. */
export const INVALID_KEY = 'petstore-replay-invalid-key';

export interface ResolvedCredential {
  /** The Authorization value to send. */
  header: string;
  /** The plan of the key sent; undefined for an invalid key. */
  plan: PlanId | undefined;
}

export class CredentialResolver {
  private readonly cache = new Map<string, ResolvedCredential>();

  constructor(private readonly targetKeys: Readonly<KeysByPlan>) {}

  /**
   * Checks that every credential of the capture can be supplied. Throws one InputError naming every
   * missing variable; returns warnings for what can be supplied only approximately.
   */
  prepare(used: ReadonlyMap<string, CredentialUse>, file: string): string[] {
    const missing = new Map<PlanId, CredentialUse>();
    const highestOrdinal = new Map<PlanId, number>();
    for (const [token, use] of used) {
      const ref = parsePlaceholder(token);
      if (ref?.kind === 'unknown-plan') {
        throw new InputError(
          `${file}: ${use.count} request(s), first in entry ${use.firstNumber}, carry ${token} (a key whose plan the recorder could not tell); replace it with the plan's placeholder, e.g. $PETSTORE_API_KEY_PRO`,
        );
      }
      if (ref?.kind === 'invalid') continue;
      const plan = ref?.kind === 'plan' ? ref.plan : this.literalPlan(token);
      if (!plan) {
        throw new InputError(
          `${file}: entry ${use.firstNumber} carries a literal key that matches no PETSTORE_API_KEY_<PLAN>; add it to the variable of its plan, or replace it in the capture with a placeholder such as $PETSTORE_API_KEY_FREE`,
        );
      }
      if (this.targetKeys[plan].length === 0) {
        const earlier = missing.get(plan);
        missing.set(plan, earlier ? { count: earlier.count + use.count, firstNumber: Math.min(earlier.firstNumber, use.firstNumber) } : { ...use });
      }
      highestOrdinal.set(plan, Math.max(highestOrdinal.get(plan) ?? 0, ref?.kind === 'plan' ? ref.ordinal : 1));
    }
    if (missing.size > 0) {
      const named = [...missing].map(([plan, use]) => `${keyVariable(plan)} (${plans[plan].name}: ${use.count} request(s), first in entry ${use.firstNumber})`);
      throw new InputError(`${file} needs keys the environment does not give: set ${named.join(' and ')}`);
    }
    const warnings: string[] = [];
    for (const [plan, ordinal] of highestOrdinal) {
      const available = this.targetKeys[plan].length;
      if (ordinal > available) {
        warnings.push(
          `the capture uses ${ordinal} different ${plans[plan].name} keys but ${keyVariable(plan)} holds ${available}; they share keys, so rate limits may refuse earlier than recorded`,
        );
      }
    }
    return warnings;
  }

  /** The Authorization value to send for a recorded one. */
  resolve(recorded: string): ResolvedCredential {
    const cached = this.cache.get(recorded);
    if (cached) return cached;
    const { scheme, token } = splitAuthorization(recorded);
    const resolved = this.resolveToken(scheme, token, recorded);
    this.cache.set(recorded, resolved);
    return resolved;
  }

  private resolveToken(scheme: string, token: string, recorded: string): ResolvedCredential {
    const prefix = scheme ? `${scheme} ` : '';
    const ref = parsePlaceholder(token);
    if (ref?.kind === 'invalid') return { header: `${prefix}${INVALID_KEY}`, plan: undefined };
    if (ref?.kind === 'plan') return { header: `${prefix}${this.keyFor(ref.plan, ref.ordinal)}`, plan: ref.plan };
    const plan = this.literalPlan(token);
    if (!plan) return { header: recorded, plan: undefined };
    if (planOfKey(this.targetKeys, token) === plan) return { header: recorded, plan };
    return { header: `${prefix}${this.keyFor(plan, 1)}`, plan };
  }

  private keyFor(plan: PlanId, ordinal: number): string {
    const keys = this.targetKeys[plan];
    const key = keys[(ordinal - 1) % keys.length];
    if (key === undefined) throw new InputError(`${keyVariable(plan)} is not set`);
    return key;
  }

  private literalPlan(token: string): PlanId | undefined {
    return planOfKey(this.targetKeys, token) ?? planOfKey(DEMO_KEYS, token);
  }

  /** Every key this replay may send or meet in a capture, for redaction. */
  knownKeys(): KeysByPlan {
    return withDemoKeys(this.targetKeys);
  }
}
