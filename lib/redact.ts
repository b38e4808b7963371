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

  /**
   * Evidence safe to write down, whoever's keys it holds: the known keys by variable, then anything that looks
   * like a credential masked wherever it travels (a query's ?api_key=, a JSON member "apiKey", a token after
   * "Bearer" in any text).
   */
  evidence(value: string): string {
    return credentialsMasked(this.text(value));
  }

  /** A copy of a report (or any JSON-like value) with every string passed through evidence(). */
  deep<T>(value: T): T {
    return this.walk(value, undefined) as T;
  }

  private walk(value: unknown, name: string | undefined): unknown {
    if (typeof value === 'string') return name !== undefined && SECRET_MEMBER.test(name) ? REDACTED : this.evidence(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, undefined));
    if (value === null || typeof value !== 'object' || value instanceof Date) return value;
    const copy: Record<string, unknown> = {};
    for (const [member, inner] of Object.entries(value)) copy[member] = this.walk(inner, member);
    return copy;
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

/** Names under which a credential travels, in a query, a form or a JSON body. */
const CREDENTIAL_NAME = '(?:api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|token|client[_-]?secret|secret|password|passwd|key)';
const IN_QUERY = new RegExp(`((?:^|[?&;])${CREDENTIAL_NAME}=)[^&#\\s"'<>]+`, 'gi');
const IN_JSON = new RegExp(`("${CREDENTIAL_NAME}"\\s*:\\s*")(?:[^"\\\\]|\\\\.)+(")`, 'gi');
/** A token after an auth scheme (RFC 6750's b64token), not an auth-param such as realm="…". */
const AFTER_SCHEME = /\b(Bearer|Basic|Token|ApiKey)([ \t]+)([A-Za-z0-9\-._~+/]+=*)(?![A-Za-z0-9\-._~+/=])(?!(?<==)")/gi;
/** Members whose every value is a secret: a credential header, a cookie. */
const SECRET_MEMBER = /^(?:(?:x-)?api[_-]?key|apikey|proxy-authorization|cookie|set-cookie|access[_-]?token|client[_-]?secret|password|secret)$/i;

/**
 * A word after "Bearer" in prose ("the Bearer scheme") is no credential: a token is taken for one when it has
 * a digit or a punctuation mark of a token, or is long.
 */
function looksLikeCredential(token: string): boolean {
  return token.length >= 16 || /[0-9\-._~+/=]/.test(token);
}

function credentialsMasked(text: string): string {
  if (!/[=:]|bearer|basic|token|apikey/i.test(text)) return text;
  return text
    .replace(IN_QUERY, `$1${REDACTED}`)
    .replace(IN_JSON, `$1${REDACTED}$2`)
    .replace(AFTER_SCHEME, (whole: string, scheme: string, space: string, token: string) => (looksLikeCredential(token) ? `${scheme}${space}${REDACTED}` : whole));
}
