/**
 * Every check of the product, registered once: a small named unit with the rules of fixtures/rules.yaml it
 * serves, what it needs to be judged, and what it holds the target (or a client) to. The suite, the load verdicts
 * of both engines, replay and the judge name the check they run here, and a finding cites the rule its check
 * serves (finding()), never a rule it names itself: from a rule's ID to the checks that judge it is one step
 * (checksOf), and the generated rules page (docs/reference/rules.md) links each rule to its checks and each check
 * to the tests and parts that run it. test/unit/lib/checks/registry.spec.ts proves that every rule a run can show
 * has a check here, and that no part outside this file writes a rule it judges.
 *
 * A leaf: it imports nothing, so every part (and every judgement) can read it. How a check is judged lives with its
 * idea (lib/rate-limiter/steps.ts, lib/response-checks.ts, ...); lib/checks/judgements.ts binds the checks that
 * one function judges to that function, for the properties that run every check on transformed traffic.
 */

/**
 * What a check needs to be judged, from the least to the most:
 * - one answer: a response with its headers (and body, where the check reads it), and the request it answered;
 * - a window of one key: every answer of a key under one Limit and Reset that the input holds, counted (sums do);
 * - a pair decided in order: two answers of one key the target decided one after the other (lib/rate-limiter/order.ts);
 * - a whole run: what only all of a run's answers (or requests) show, as a kind of limiter or a ban.
 */
export type Need = 'one answer' | 'a window of one key' | 'a pair decided in order' | 'a whole run';

/**
 * What of a key's traffic a rate-limit check uses, finer than its Need: an input that lacks one (a generator's
 * per-window sums carry no order of answers) leaves the check "not checked", saying which (unmetNeeds).
 */
export type Uses =
  /** How many were admitted and refused under each Limit and Reset, well before that Reset: sums carry this. */
  | 'firm counts per window'
  /** Answers the target decided one after the other (order.ts), each with its headers. */
  | 'pairs decided one after the other'
  /** The order of a key's requests: which came before a window's first refusal, which after a 429 was waited out. */
  | 'per-request order'
  /** Each refusal with its own headers. */
  | 'refusals with their headers'
  /** The kind of limiter the answers show (recognise.ts). */
  | 'the kind of limiter';

/** 'PLAN' is the key's plan's quota rule (PLAN-FREE, ..., PLAN-ENTERPRISE-AGREED; RL-5 for a key of no known quota). */
export type RuleRef = string;

export interface Check {
  name: string;
  /**
   * The idea it is one judgement of, where one idea is judged on more than one input (Remaining's: one answer's value,
   * a window's countdown, a pair's step): the rules page shows that idea as one check (IDEAS), with a judgement per
   * need; its judgements serve the same rules. Absent: the check is an idea of its own.
   */
  of?: keyof typeof IDEAS;
  /** The rule IDs it serves; a finding of the check cites one of them. */
  rules: readonly RuleRef[];
  need: Need;
  /** What it holds the target to, in a sentence (the rules page shows it). */
  judges: string;
  /** For a rate-limit check: what of a key's traffic it uses. */
  uses?: readonly Uses[];
  /**
   * What a capture must hold for the judge to judge it (said when it held none); absent where traffic cannot show
   * the check: it takes requests the suite sends on purpose, or a run's whole count. {plan}: the key's plan.
   */
  traffic?: string;
}

/**
 * A check's judgement of one input (the shape its Need names): the problems found, each in words, or none. Where a
 * judgement is one function (a pair's steps, one answer's headers), lib/checks/judgements.ts binds it to the check.
 */
export type Judgement<Input> = (input: Input) => readonly string[];

/** What a check found: the rule it cites (one of the check's), and what was seen. */
export interface Finding {
  check: CheckName;
  rule: string;
  message: string;
}

/** The ideas judged on more than one input, each in a sentence: one check each, whose judgements name it (`of`). */
export const IDEAS = {
  remaining: 'X-RateLimit-Remaining says how many requests are left in the window: a whole number up to the limit, one less per admission, none on a refusal',
  reset: 'X-RateLimit-Reset is when the window ends: a plausible Unix time that stays put within a window (or moves to when a bucket is full again)',
} as const;

const CHECKS = [
  // One answer, whoever sent the request (lib/response-checks.ts, lib/request-rules.ts).
  { name: 'json-body', rules: ['SVC-1'], need: 'one answer', traffic: 'an answer whose body the capture holds', judges: 'a response with a body declares Content-Type application/json and its body is JSON' },
  { name: 'documented-status', rules: ['RESP-1'], need: 'one answer', traffic: 'an exchange of one of the contract\'s operations', judges: 'the status is one the spec documents for the operation (any client error with an Error body, for a request outside the contract)' },
  { name: 'body-shape', rules: ['RESP-2'], need: 'one answer', traffic: 'an answer whose body the capture holds', judges: 'a body has its documented shape (Pet, an array of Pet)' },
  { name: 'request-answered', rules: ['RESP-3'], need: 'a whole run', traffic: "an exchange of one of the contract's operations", judges: 'every request gets an answer within the bounded wait, while others to its operation are answered' },
  { name: 'error-body', rules: ['ERR-1'], need: 'one answer', traffic: 'a client error whose body the capture holds', judges: 'a 400, 401, 404 (or a client error to a request outside the contract) carries an Error' },
  { name: 'error-status', rules: ['ERR-2'], need: 'one answer', traffic: 'a client error whose body the capture holds', judges: "an Error's status equals the response's" },
  { name: 'rate-limit-headers-present', rules: ['RL-4'], need: 'one answer', traffic: 'an exchange of one of the contract\'s operations', judges: 'every answer carries X-RateLimit-Limit, -Remaining and -Reset' },
  { name: 'limit-value', rules: ['RL-5'], need: 'one answer', traffic: 'an answer to a key of known plan (PETSTORE_API_KEY_<PLAN>, or a recording that names plans)', judges: "X-RateLimit-Limit is a whole number and, for a key of a known plan, one of that plan's quotas" },
  { name: 'remaining-value', of: 'remaining', rules: ['RL-6'], need: 'one answer', traffic: 'an answer with X-RateLimit-Remaining', judges: 'X-RateLimit-Remaining is a whole number from 0 to the limit' },
  { name: 'reset-value', of: 'reset', rules: ['RL-7'], need: 'one answer', traffic: 'an answer with X-RateLimit-Reset', judges: 'X-RateLimit-Reset is a whole number of Unix seconds, not before the request left, at most two days ahead' },
  { name: 'retry-after-present', rules: ['RL-1'], need: 'one answer', traffic: 'a 429 (no request in the capture was refused)', judges: 'a 429 carries Retry-After' },
  { name: 'retry-after-format', rules: ['RL-2'], need: 'one answer', traffic: 'a 429 (no request in the capture was refused)', judges: "a 429's Retry-After is delta-seconds or an HTTP-date" },
  { name: 'no-key-refused', rules: ['AUTH-1'], need: 'one answer', traffic: 'a request without an Authorization header', judges: 'a request without an Authorization header is answered 401' },
  { name: 'bearer-key-accepted', rules: ['AUTH-5'], need: 'one answer', traffic: 'a request with a key of known plan as "Bearer <key>"', judges: 'a configured key sent as "Bearer <key>" is not answered 401' },
  { name: 'scheme-case-insensitive', rules: ['AUTH-7'], need: 'one answer', traffic: 'a request with a key of known plan in a scheme not spelt "Bearer" ("bearer <key>")', judges: 'a configured key in a scheme not spelt "Bearer" (bearer, BEARER) is not answered 401' },
  { name: 'list-plain-array', rules: ['LIST-5'], need: 'one answer', traffic: 'a 200 to GET /pets whose body the capture holds', judges: 'a successful list is a plain JSON array of Pet' },
  { name: 'list-largest-page', rules: ['LIST-4'], need: 'one answer', traffic: 'a 200 to GET /pets whose body the capture holds', judges: 'a list never holds more than 100 animals' },
  { name: 'list-default-page', rules: ['LIST-2'], need: 'one answer', traffic: 'a 200 to GET /pets without limit whose body the capture holds', judges: 'a list without limit holds at most 20 animals' },
  { name: 'list-asked-page', rules: ['LIST-3'], need: 'one answer', traffic: 'a 200 to GET /pets?limit=N whose body the capture holds', judges: 'a list with limit N holds at most N animals' },
  { name: 'list-status-filter', rules: ['LIST-1'], need: 'one answer', traffic: 'a 200 to GET /pets?status=… whose body the capture holds', judges: 'a list filtered by status holds only animals of that status' },
  { name: 'created-as-sent', rules: ['CREATE-1'], need: 'one answer', traffic: 'a POST /pets with a valid NewPet whose body the capture holds', judges: 'a valid NewPet is answered 201 with a Pet carrying an id and what was sent' },
  { name: 'sunset-date', rules: ['DEP-2'], need: 'one answer', traffic: 'a getPet answer with a Sunset header', judges: "getPet's Sunset, when sent, is an HTTP-date on 5 December 2030" },
  { name: 'deprecation-date', rules: ['DEP-3'], need: 'one answer', traffic: 'a getPet answer with a Deprecation header', judges: 'a Deprecation header, when sent, is an RFC 9745 date not after the sunset' },
  { name: 'successor-link', rules: ['DEP-4'], need: 'one answer', judges: "getPet's Link, when sent, is well formed and its successor-version is the list operation" },
  { name: 'only-getpet-deprecated', rules: ['VER-3'], need: 'one answer', traffic: 'an answer of an operation the interface does not deprecate (any but getPet)', judges: 'no operation but getPet signals deprecation' },
  { name: 'stability-marker', rules: ['ORD-GAP-2'], need: 'one answer', traffic: 'an answer to GET /store/orders', judges: "how GET /store/orders's answers mark its stability, observed" },
  { name: 'deprecation-signals', rules: ['DEP-GAP-1'], need: 'one answer', traffic: 'a getPet answer', judges: "which deprecation headers getPet's answers carry, observed" },
  { name: 'standard-fields', rules: ['RL-GAP-3'], need: 'one answer', traffic: 'an answer with X-RateLimit headers or the standard RateLimit fields', judges: 'whether the standard RateLimit and RateLimit-Policy fields are sent, and agree with X-RateLimit-*, observed' },

  // A key's windows, pairs and run (lib/rate-limiter): the judge, both load engines and the suite's window analysis.
  { name: 'minute-max', rules: ['PLAN'], need: 'a window of one key', uses: ['firm counts per window'], traffic: 'a window of {plan}\'s answers, more than a second before its Reset', judges: 'no window admits more than its limit' },
  { name: 'refused-over-limit', rules: ['RL-1'], need: 'a window of one key', judges: "a request past a window's limit is answered 429" },
  { name: 'first-refusal', rules: ['PLAN', 'RL-1'], need: 'a window of one key', uses: ['per-request order'], judges: 'a window seen from its start refuses only once its limit was admitted' },
  { name: 'daily-quota', rules: ['PLAN'], need: 'a window of one key', uses: ['firm counts per window'], judges: 'no day admits more than its quota' },
  { name: 'custom-quota', rules: ['PLAN'], need: 'a whole run', judges: "the quota a key of a plan without documented limits showed, observed" },
  { name: 'remaining-countdown', of: 'remaining', rules: ['RL-6'], need: 'a window of one key', uses: ['firm counts per window'], judges: "a window's Remaining values, in any order, run down one by one from below its limit" },
  { name: 'remaining-steps', of: 'remaining', rules: ['RL-6'], need: 'a pair decided in order', uses: ['pairs decided one after the other', 'the kind of limiter'], judges: 'Remaining falls by one per admission, or rises only as the quota comes back' },
  { name: 'refusal-says-left', of: 'remaining', rules: ['RL-6'], need: 'one answer', uses: ['refusals with their headers'], judges: 'a 429 does not say requests are left in the window it names (unless it asks for a wait longer than a window)' },
  { name: 'reset-stable', of: 'reset', rules: ['RL-7'], need: 'a pair decided in order', uses: ['pairs decided one after the other'], judges: 'Reset stays put, starts a new window once it came, or moves to when a bucket is full again' },
  { name: 'retry-after-admitted', rules: ['RL-3'], need: 'a pair decided in order', uses: ['per-request order'], judges: "a request sent once a 429's Retry-After passed is admitted" },
  { name: 'ban', rules: ['ERR-GAP-3'], need: 'a whole run', judges: 'whether repeated requests after a 429 got the key banned, and for how long, observed' },
  { name: 'limiter-kind', rules: ['RL-GAP-2'], need: 'a whole run', uses: ['pairs decided one after the other'], traffic: 'an admitted answer with all three X-RateLimit headers, of a known key', judges: 'the kind of limiter, observed' },
  { name: 'higher-plan-higher-limits', rules: ['RL-8'], need: 'a whole run', judges: 'Free is limited below Pro, Pro below Business' },
  { name: 'per-key-or-account', rules: ['RL-GAP-1'], need: 'a whole run', judges: "whether a second key of one account shares the first's count, observed" },

  // A client's requests (harness/judge/client-rule-judge.ts, certify-client).
  { name: 'client-waits-retry-after', rules: ['ERR-3'], need: 'a pair decided in order', traffic: 'a 429 with Retry-After answered to a key, whose client is then judged on what it sent next', judges: "a client's next request on a key comes no sooner than a 429's Retry-After asked" },
  { name: 'client-backs-off', rules: ['ERR-4'], need: 'a whole run', traffic: 'a 429 with Retry-After answered to a key, whose client is then judged on what it sent next', judges: 'a client backs off between retries and does not repeat requests while refused' },

  // What only the suite's own requests show: requests it sends on purpose, and what the store holds after them.
  { name: 'orders-exist', rules: ['ORD-1'], need: 'one answer', traffic: 'GET /store/orders with a configured key', judges: 'GET /store/orders answers a documented status with a valid key, not 404 or 405' },
  { name: 'order-shapes', rules: ['ORD-GAP-1'], need: 'one answer', judges: "the store-orders area's shapes, observed" },
  { name: 'pet-status-values', rules: ['RES-1'], need: 'a whole run', judges: 'each PetStatus is accepted and no other is returned' },
  { name: 'category-id-range', rules: ['RES-GAP-1'], need: 'one answer', judges: 'which categoryIds are accepted, observed' },
  { name: 'name-limits', rules: ['RES-GAP-2'], need: 'one answer', judges: 'the answer to an empty or a very long name, observed' },
  { name: 'default-status', rules: ['RES-GAP-3'], need: 'one answer', judges: 'the status a pet created without one gets, observed' },
  { name: 'status-over-time', rules: ['STATE-GAP-1'], need: 'a whole run', judges: "how a pet's status changes over the run, observed" },
  { name: 'page-full', rules: ['LIST-6'], need: 'one answer', judges: 'a list of more matching animals than its page size is full' },
  { name: 'added-is-listed', rules: ['LIST-7'], need: 'a whole run', traffic: "a list filtered by status, not full, between an answer before it and one after it that show a pet the capture saw created with that status", judges: 'an animal created (201) is in every list filtered by the status it has that has room' },
  { name: 'paging', rules: ['LIST-GAP-1'], need: 'a whole run', judges: 'how a client moves to another page, observed' },
  { name: 'list-order', rules: ['LIST-GAP-3'], need: 'a whole run', judges: 'the order of animals in a list, observed' },
  { name: 'odd-status-filter', rules: ['LIST-GAP-4'], need: 'one answer', judges: 'the answer to a status filter that is not a PetStatus, or given twice, observed' },
  { name: 'odd-limit', rules: ['LIST-GAP-2'], need: 'one answer', judges: 'the answer to a limit outside 1..100, not an integer, or given twice, observed' },
  { name: 'missing-field-refused', rules: ['CREATE-2'], need: 'one answer', traffic: 'a POST /pets whose body lacks name or categoryId', judges: 'a NewPet missing name or categoryId is answered 400 with an Error' },
  { name: 'invalid-value-refused', rules: ['CREATE-3'], need: 'one answer', traffic: 'a POST /pets whose body holds an invalid value', judges: 'a NewPet with an invalid value is answered 400 with an Error' },
  { name: 'body-required', rules: ['CREATE-4'], need: 'one answer', traffic: 'a POST /pets whose body is empty or not JSON', judges: 'an empty or malformed body is answered 400 with an Error' },
  { name: 'unique-ids', rules: ['CREATE-5'], need: 'a whole run', judges: 'every created animal gets its own id, also when created at once' },
  { name: 'extra-fields', rules: ['CREATE-GAP-1'], need: 'one answer', judges: 'the answer to a NewPet with an id or unknown fields, observed' },
  { name: 'outside-json-contract', rules: ['CREATE-GAP-2'], need: 'one answer', judges: 'the answer to a request outside the JSON contract, observed' },
  { name: 'get-as-created', rules: ['GET-1'], need: 'a pair decided in order', traffic: "a getPet of a pet the capture saw created, sent after the creation's answer came", judges: 'an existing id is answered 200 with that Pet as it was created (another PetStatus is a move another party may have made, STATE-GAP-1: partly checked)' },
  { name: 'unknown-id-404', rules: ['GET-2'], need: 'one answer', judges: 'an id no animal has is answered 404 with an Error' },
  { name: 'large-id-exact', rules: ['GET-3'], need: 'one answer', judges: 'an id above 2^53 is looked up exactly' },
  { name: 'odd-pet-id', rules: ['GET-GAP-1'], need: 'one answer', judges: 'the answer to a petId that is not an int64, observed' },
  { name: 'getpet-works', rules: ['DEP-1'], need: 'one answer', traffic: "a getPet of a pet the capture saw created, sent after the creation's answer came", judges: 'getPet keeps working until its removal date' },
  { name: 'unknown-key-refused', rules: ['AUTH-2'], need: 'one answer', judges: 'an unknown key is answered 401 with an Error' },
  { name: 'other-scheme-refused', rules: ['AUTH-3'], need: 'one answer', traffic: 'a request with a credential in another scheme than Bearer, or a bare key', judges: 'a key in another scheme is answered 401' },
  { name: 'empty-token-refused', rules: ['AUTH-4'], need: 'one answer', traffic: 'a request with an empty bearer token', judges: 'an empty bearer token is answered 401' },
  { name: 'bearer-challenge', rules: ['AUTH-6'], need: 'one answer', judges: 'a 401 carries a WWW-Authenticate challenge for Bearer' },
  { name: 'key-lifecycle', rules: ['AUTH-GAP-1'], need: 'a whole run', judges: 'how keys are issued and revoked, observed' },
  { name: 'events', rules: ['EVT-GAP-1'], need: 'a whole run', judges: 'events, webhooks or notifications, observed' },
  { name: 'refusal-body', rules: ['ERR-GAP-1'], need: 'one answer', judges: "a 429's body, observed" },
  { name: 'error-codes', rules: ['ERR-GAP-2'], need: 'one answer', judges: "an Error's code values, observed" },
  { name: 'enterprise-quota', rules: ['PLAN-ENTERPRISE'], need: 'a whole run', judges: "an Enterprise key's quotas, observed" },
  { name: 'versioned-path', rules: ['VER-1'], need: 'one answer', judges: 'the operations answer under /v1' },
  { name: 'same-shape-everywhere', rules: ['VER-2'], need: 'a whole run', judges: 'production and staging each pass at their own base URL' },
  { name: 'later-versions', rules: ['VER-GAP-1'], need: 'a whole run', judges: 'how later versions are introduced, observed' },
] as const satisfies readonly Check[];

export type CheckName = (typeof CHECKS)[number]['name'];

const BY_NAME = new Map<string, Check>(CHECKS.map((check) => [check.name, check]));

export const checks: readonly Check[] = CHECKS;

export function checkNamed(name: CheckName): Check {
  return BY_NAME.get(name)!;
}

/** The rules a check serves for a key of `plan` ('PLAN' made the plan's own rule). */
export function rulesOf(name: CheckName, plan?: string): string[] {
  return checkNamed(name).rules.map((rule) => (rule === 'PLAN' ? planRuleOf(plan) : rule));
}

/** The rule a check of one rule serves, as its literal type (ERR-3 for client-waits-retry-after). */
type RuleOfCheck<N extends CheckName> = Extract<(typeof CHECKS)[number], { name: N }>['rules'][number];

/** The checks that serve one rule (not the plan's quota): a finding of one cites that rule. */
export type OneRuleCheck = { [N in CheckName]: Extract<(typeof CHECKS)[number], { name: N }>['rules'] extends readonly [infer R] ? (R extends 'PLAN' ? never : N) : never }[CheckName];

/** The rule each check of one rule cites, looked up once: RULE['no-key-refused'] is 'AUTH-1'. */
export const RULE = Object.fromEntries(CHECKS.filter((check) => check.rules.length === 1 && check.rules[0] !== 'PLAN').map((check) => [check.name, check.rules[0]])) as {
  readonly [N in OneRuleCheck]: RuleOfCheck<N>;
};

/** The rule a check serves, for a check of one rule; for a check of several, the one named (which must be one of them). */
export function ruleOf<N extends CheckName>(name: N): RuleOfCheck<N>;
export function ruleOf(name: CheckName, which: string): string;
export function ruleOf(name: CheckName, which?: string): string {
  const { rules } = checkNamed(name);
  if (which !== undefined) {
    if (!rules.includes(which) && !(rules.includes('PLAN') && which.startsWith('PLAN-'))) throw new Error(`check ${name} serves ${rules.join(', ')}, not ${which}`);
    return which;
  }
  if (rules.length !== 1 || rules[0] === 'PLAN') throw new Error(`check ${name} serves ${rules.join(', ')}: name the rule its finding cites`);
  return rules[0]!;
}

/** A finding of `check`, citing its rule (or `which` of its rules). */
export function finding(check: CheckName, message: string, which?: string): Finding {
  return { check, rule: which === undefined ? ruleOf(check) : ruleOf(check, which), message };
}

/**
 * The rule a window admitting past its limit breaks (the checks of 'PLAN'): a documented plan's quota, an Enterprise
 * key's agreed one, or, for a quota no one stated, the Limit the target itself sent (RL-5).
 */
export function quotaRule(plan: string | undefined, quota: 'documented' | 'agreed' | 'unstated'): string {
  if (plan !== undefined && quota === 'documented') return planRuleOf(plan);
  if (plan === 'enterprise' && quota === 'agreed') return 'PLAN-ENTERPRISE-AGREED';
  return ruleOf('limit-value');
}

/** The plan's quota rule for a key of `plan` (PLAN-FREE, ...); Free's where no plan is known. */
function planRuleOf(plan: string | undefined): string {
  return `PLAN-${(plan ?? 'free').toUpperCase()}`;
}

/** The checks that judge `rule` (PLAN-* rules are served by the checks of 'PLAN'). */
export function checksOf(rule: string): Check[] {
  const plan = rule.startsWith('PLAN-') && rule !== 'PLAN-ENTERPRISE';
  return CHECKS.filter((check) => (check.rules as readonly string[]).includes(rule) || (plan && (check.rules as readonly string[]).includes('PLAN')));
}

/** A check as a rule's page shows it: an idea, with its judgements (itself alone, for a check that is an idea of its own). */
export interface IdeaCheck {
  name: string;
  judges: string;
  judgements: readonly Check[];
}

/** The checks that judge `rule`, one per idea: from a rule's ID to each idea's judgement per need in one step. */
export function ideasOf(rule: string): IdeaCheck[] {
  const ideas = new Map<string, IdeaCheck>();
  for (const check of checksOf(rule)) {
    const name = check.of ?? check.name;
    const idea = ideas.get(name) ?? { name, judges: check.of === undefined ? check.judges : IDEAS[check.of], judgements: [] };
    ideas.set(name, { ...idea, judgements: [...idea.judgements, check] });
  }
  return [...ideas.values()];
}

/** The documented plans' quota rules and an agreed Enterprise quota's: what a window admitting past its limit breaks. */
export const QUOTA_RULES = ['PLAN-FREE', 'PLAN-PRO', 'PLAN-BUSINESS', 'PLAN-ENTERPRISE-AGREED'] as const;

/** Whose answers a quota rule's windows are, in the words of the judge's "this traffic has no ...". */
const QUOTA_KEYS: Readonly<Record<(typeof QUOTA_RULES)[number], string>> = {
  'PLAN-FREE': 'a Free key',
  'PLAN-PRO': 'a Pro key',
  'PLAN-BUSINESS': 'a Business key',
  'PLAN-ENTERPRISE-AGREED': 'an Enterprise key',
};

/**
 * What traffic must hold for the judge to judge `rule`, from the first of its checks that traffic shows; undefined
 * when none does (the suite's own requests show it).
 */
export function trafficNeed(rule: string): string | undefined {
  const shown = checksOf(rule).find((check) => check.traffic !== undefined);
  if (shown?.traffic === undefined) return undefined;
  if (!shown.traffic.includes('{plan}')) return shown.traffic;
  const keys = QUOTA_KEYS[rule as (typeof QUOTA_RULES)[number]];
  if (keys === undefined) return undefined;
  const agreed = rule === 'PLAN-ENTERPRISE-AGREED' ? ', with the agreed quota stated (PETSTORE_ENTERPRISE_PER_MINUTE and _PER_DAY)' : '';
  return shown.traffic.replace('{plan}', keys).replace(', more than a second before its Reset', agreed || ', more than a second before its Reset');
}

/** Why the check cannot be judged on input that carries only `carried`, or undefined when it can. */
export function unmetNeeds(name: CheckName, carried: ReadonlySet<Uses>, input: string): string | undefined {
  const missing = (checkNamed(name).uses ?? []).filter((need) => !carried.has(need));
  return missing.length === 0 ? undefined : `${name} needs ${missing.join(' and ')}, not in ${input}`;
}
