/**
 * Decides the placeholder that stands for a credential in a recording (see lib/capture/credentials.ts).
 * A key the recorder knows (PETSTORE_API_KEY_<PLAN>, or a demo key) is named by its plan; a credential it
 * does not know is named by what the upstream made of it: refused (401) means invalid, otherwise the plan is
 * read from X-RateLimit-Limit when that matches exactly one documented plan.
 */
import { windowKind } from '../../lib/rate-limiter/window-of-limit.ts';
import { keysFromEnv, planOfKey, type KeysByPlan } from '../../lib/keys.ts';
import { PLAN_IDS, plans, type PlanId } from '../../lib/plans.ts';
import { wholeNumber } from '../../lib/rate-limit-headers.ts';
import { INVALID_KEY_PLACEHOLDER, planPlaceholder, unknownPlanPlaceholder, withDemoKeys } from '../../lib/capture/credentials.ts';

/** The keys a recorder must recognise and redact: those configured, and the public demo keys besides. */
export function knownKeys(env: NodeJS.ProcessEnv): KeysByPlan {
  return withDemoKeys(keysFromEnv(env));
}

export interface UpstreamVerdict {
  status: number;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
}

export interface Naming {
  placeholder: string;
  /** Said once per credential, when the recording could not name its plan from configuration. */
  warning?: string;
}

export class CredentialNamer {
  private readonly named = new Map<string, string>();
  private readonly seenPerPlan = new Map<PlanId, number>();
  private unknownPlanKeys = 0;

  constructor(private readonly known: Readonly<KeysByPlan>) {}

  name(token: string, upstream: UpstreamVerdict): Naming {
    const earlier = this.named.get(token);
    if (earlier) return { placeholder: earlier };
    const knownPlan = planOfKey(this.known, token);
    if (knownPlan) return { placeholder: this.remember(token, knownPlan) };
    if (upstream.status === 401) return { placeholder: INVALID_KEY_PLACEHOLDER };
    const guessed = planFromLimit(upstream.headers);
    if (guessed) {
      return {
        placeholder: this.remember(token, guessed),
        warning: `a key the recorder was not given was taken for a ${plans[guessed].name} key from X-RateLimit-Limit; set PETSTORE_API_KEY_<PLAN> to name plans for certain`,
      };
    }
    // Each key of unknown plan keeps a placeholder of its own: rate limits are per key, and one shared
    // placeholder would add up different keys' admissions under one key.
    this.unknownPlanKeys++;
    const placeholder = unknownPlanPlaceholder(this.unknownPlanKeys);
    this.named.set(token, placeholder);
    return {
      placeholder,
      warning: `a key of unknown plan was recorded as ${placeholder}; set PETSTORE_API_KEY_<PLAN> for the recorder so the recording names its plan`,
    };
  }

  private remember(token: string, plan: PlanId): string {
    const ordinal = (this.seenPerPlan.get(plan) ?? 0) + 1;
    this.seenPerPlan.set(plan, ordinal);
    const placeholder = planPlaceholder(plan, ordinal);
    this.named.set(token, placeholder);
    return placeholder;
  }
}

function planFromLimit(headers: UpstreamVerdict['headers']): PlanId | undefined {
  const limit = wholeNumber(headers['x-ratelimit-limit']);
  if (limit === undefined) return undefined;
  const matching = PLAN_IDS.filter((plan) => {
    const documented = plans[plan].documented;
    return documented !== undefined && windowKind({ limit }, documented) !== 'neither';
  });
  return matching.length === 1 ? matching[0] : undefined;
}
