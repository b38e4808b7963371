/**
 * Keeps credentials out of everything written down: reports, traces, logs, recordings and curl commands,
 * whoever issued them. A configured key is replaced by the name of the variable that holds it, so a reader can
 * still reproduce the call; a credential a part met on its way (a key a capture sent) by what that part calls it
 * (its pseudonym); anything else that looks like a credential (lib/credential-shape.ts) is masked: a token after
 * an auth scheme, the value of a key-like query parameter, header, cookie or JSON member, and a token-shaped
 * string anywhere.
 */
import { PLAN_IDS, type PlanId } from './plans.ts';
import { keyVariable, type KeysByPlan } from './keys.ts';
import { credentialsCarried, isKeyLikeName, looksLikeKey, tokensMasked, type CarriedParts } from './credential-shape.ts';

export const REDACTED = '<redacted>';

export function placeholderFor(plan: PlanId): string {
  return `$${keyVariable(plan)}`;
}

/** Credentials shorter than this are not replaced wherever they occur: a short one would garble the text. */
export const MIN_REPLACED_SECRET = 6;
/**
 * Credentials learnt beyond the configured keys are kept up to this many, so that memory and the time to write
 * a report stay bounded on a capture of a million sessions; past it, the masks by position and shape still apply.
 */
const MOST_LEARNT = 2000;

export class Redactor {
  private readonly known = new Map<string, string>();
  private sorted: Array<[string, string]> | undefined;
  private learnt = 0;

  constructor(keys: Readonly<KeysByPlan>) {
    for (const plan of PLAN_IDS) for (const key of keys[plan]) if (key.length > 0) this.known.set(key, placeholderFor(plan));
  }

  /**
   * A credential met on the way (a key a capture sent, a value under a key-like name), to be written as `shownAs`
   * wherever it occurs. A configured key keeps its variable's name; one too short to replace safely is left to
   * the masks by position and shape.
   */
  learn(secret: string, shownAs: string = REDACTED): void {
    if (secret.length < MIN_REPLACED_SECRET || this.known.has(secret) || ALREADY_SAFE.test(secret) || this.learnt >= MOST_LEARNT) return;
    this.learnt++;
    this.known.set(secret, shownAs);
    this.sorted = undefined;
  }

  /** Learns what a request or an answer carries by position (?x-api-key=, a cookie, a JSON "apiKey"), to mask wherever it is echoed. */
  learnCarried(parts: CarriedParts): void {
    for (const secret of credentialsCarried(parts)) this.learn(secret);
  }

  /** The text with every credential replaced or masked. */
  text(value: string): string {
    // Longest first, so a key that contains another key is replaced whole.
    this.sorted ??= [...this.known].sort((a, b) => b[0].length - a[0].length);
    let result = value;
    for (const [key, shownAs] of this.sorted) if (result.includes(key)) result = result.split(key).join(shownAs);
    return credentialsMasked(result);
  }

  /** An Authorization header value safe to write down: known keys by variable, any other credential masked. */
  authorization(value: string): string {
    const replaced = this.text(value);
    if (replaced !== value) return replaced;
    const match = /^(\S+)(\s+)(.*)$/.exec(value);
    return match ? `${match[1]}${match[2]}${REDACTED}` : REDACTED;
  }

  /**
   * A copy of a report (or any JSON-like value) with every string passed through text(), key-like members masked.
   * A report says the same few hundred strings thousands of times (member names, verdicts, rule ids): each is
   * redacted once per copy (a report of 75 rules: 3,800 strings, 410 distinct; its copy in a fresh process took 29 ms, now 3).
   */
  deep<T>(value: T): T {
    return this.walk(value, undefined, new Map()) as T;
  }

  private walk(value: unknown, name: string | undefined, redacted: Map<string, string>): unknown {
    // A report's Authorization is shown already (a scheme and a pseudonym), and a token in it is masked by text().
    if (typeof value === 'string') return name !== undefined && !isAuthorization(name) ? this.member(name, value, redacted) : this.textOnce(value, redacted);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, undefined, redacted));
    if (value === null || typeof value !== 'object' || value instanceof Date) return value;
    const copy: Record<string, unknown> = {};
    // A member's name is redacted too: a server may echo a key as a name ({"<key>": …}).
    for (const [member, inner] of Object.entries(value)) copy[this.textOnce(member, redacted)] = this.walk(inner, member, redacted);
    return copy;
  }

  /** text(), looked up in what this copy already redacted. */
  private textOnce(value: string, redacted: Map<string, string>): string {
    let text = redacted.get(value);
    if (text === undefined) {
      text = this.text(value);
      redacted.set(value, text);
    }
    return text;
  }

  /** A value under a name (a header, a JSON member) safe to write down. */
  member(name: string, value: string, redacted?: Map<string, string>): string {
    if (isAuthorization(name)) return this.authorization(value);
    const text = redacted ? this.textOnce(value, redacted) : this.text(value);
    return secretUnder(name, text) ? REDACTED : text;
  }

  /** Headers safe to write down. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const safe: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) safe[name] = this.member(name, value);
    return safe;
  }
}

function isAuthorization(name: string): boolean {
  return /^(?:proxy-)?authorization$/i.test(name);
}

/** What a redactor already wrote, or nothing at all: a variable's name, a pseudonym, a mask. */
const ALREADY_SAFE = /^(?:|\$PETSTORE_[A-Z_]+(?:#\d+)?|<[^<>]*>|%3C[^&#]*%3E)$/i;

/**
 * Whether a value under this name is a credential. A JSON member or header "key" is also the exchange format's
 * name of a key's pseudonym ("pro-1"): only a value that looks like a key is taken for one there; ?key= is one.
 */
function secretUnder(name: string, value: string, inQuery = false): boolean {
  if (ALREADY_SAFE.test(value) || !isKeyLikeName(name)) return false;
  return inQuery || name.toLowerCase() !== 'key' || looksLikeKey(value);
}

const IN_QUERY = /((?:^|[?&;\s])([A-Za-z0-9_.%[\]-]+)=)([^&#\s"'<>;]+)/g;
const IN_JSON = /("((?:[^"\\]|\\.)+)"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;
/** JSON inside a JSON string, its quotes escaped: a body in a report written as JSON. */
const IN_ESCAPED_JSON = /(\\"([^"\\]+)\\"\s*:\s*\\")([^"\\]*)(\\")/g;
/** A token after an auth scheme (RFC 6750's b64token), not an auth-param such as realm="…". */
const AFTER_SCHEME = /\b(Bearer|Basic|Token|ApiKey)([ \t]+)([A-Za-z0-9\-._~+/]+=*)(?![A-Za-z0-9\-._~+/=])(?!(?<==)")/gi;

/**
 * A word after "Bearer" in prose ("the Bearer scheme") is no credential: a token is taken for one when it has
 * a digit or a punctuation mark of a token, or is long.
 */
function afterSchemeIsCredential(token: string): boolean {
  return token.length >= 16 || /[0-9\-._~+/=]/.test(token);
}

function nameOf(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function credentialsMasked(text: string): string {
  const byPosition = /[=:]|bearer|basic|token|apikey/i.test(text)
    ? text
        .replace(IN_QUERY, (whole: string, head: string, name: string, value: string) => (secretUnder(nameOf(name), value, true) ? `${head}${REDACTED}` : whole))
        .replace(IN_JSON, (whole: string, head: string, name: string, value: string, tail: string) => (secretUnder(name, value) ? `${head}${REDACTED}${tail}` : whole))
        .replace(IN_ESCAPED_JSON, (whole: string, head: string, name: string, value: string, tail: string) => (secretUnder(name, value) ? `${head}${REDACTED}${tail}` : whole))
        .replace(AFTER_SCHEME, (whole: string, scheme: string, space: string, token: string) => (afterSchemeIsCredential(token) && !ALREADY_SAFE.test(token) ? `${scheme}${space}${REDACTED}` : whole))
    : text;
  return tokensMasked(byPosition, REDACTED);
}
