/**
 * What a credential looks like, whoever issued it: the one definition every part redacts by (lib/redact.ts).
 *
 * By position: the value of a key-like name (a query parameter, a header, a JSON member, a cookie). A name is
 * key-like when one of its words (split at -, _, . and camelCase) is a credential's word (token, secret,
 * password, signature, sig, auth, session, cookie, jwt …, or apikey), or its last word is "key":
 * api_key, x-api-key, apiKey, access_token, client_secret, X-Amz-Signature, sid; not monkey, keyword, limit.
 *
 * By shape, anywhere in text ("token-shaped"):
 * - a secret of a well-known issuer's form: sk_live_…, pk_test_…, rk_live_… (Stripe), ghp_… and github_pat_…
 *   (GitHub), xoxb-… (Slack), glpat-… (GitLab), AKIA… (AWS), AIza… (Google), npm_…, and a JWT (eyJ….….…);
 * - a random-looking string: a run of letters, digits, - and _ in which one stretch of letters and digits
 *   (between - and _) is 20 or more long, mixes upper case, lower case and digits, or is 24 or more long with
 *   letters and digits, and is not hexadecimal alone.
 * Not token-shaped, so left as they are: numbers (ids up to 2^63), UUIDs, hex digests (git commits, ETags, trace
 * ids), words and hyphenated names (rule ids, pseudonyms, temporary folders' random tails), dates and URLs.
 * A key of hex digits alone, or a short random one, is therefore caught only by position or when configured.
 */
import { BoundedMemo } from './bounded-memo.ts';

/** Words that make a name a credential's wherever they stand in it. */
const SECRET_WORDS = new Set([
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'credential',
  'credentials',
  'signature',
  'sig',
  'auth',
  'session',
  'sessionid',
  'sid',
  'cookie',
  'jwt',
]);

/** A name's words in lower case: "X-Api-Key" → x, api, key; "clientSecret" → client, secret. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * Names already answered: a capture sends the same few header names and query parameters with every exchange,
 * and splitting each into words again cost the judge more than its rate-limit windows. Bounded: a flood of
 * distinct names starts it afresh.
 */
const keyLikeNames = new Map<string, boolean>();
const REMEMBERED_NAMES = 4_096;

/** Whether a value under this name is a credential (see above). "authorization" is not: its scheme is not secret. */
export function isKeyLikeName(name: string): boolean {
  const known = keyLikeNames.get(name);
  if (known !== undefined) return known;
  const words = nameWords(name);
  const keyLike = words.some((word) => SECRET_WORDS.has(word)) || words.at(-1) === 'key' || words.at(-1) === 'keys';
  if (keyLikeNames.size >= REMEMBERED_NAMES) keyLikeNames.clear();
  keyLikeNames.set(name, keyLike);
  return keyLike;
}

const WELL_KNOWN =
  '(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9_]{4,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|AIza[A-Za-z0-9_-]{35}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*';

/** Candidates in text: a well-known secret, or a run of letters, digits, - and _ (base64's padding kept with it). */
const CANDIDATE = new RegExp(`(?<![A-Za-z0-9_$-])(?:${WELL_KNOWN}|[A-Za-z0-9][A-Za-z0-9_-]*)(?:=*)(?![A-Za-z0-9_-])`, 'g');
const WELL_KNOWN_WHOLE = new RegExp(`^(?:${WELL_KNOWN})=*$`);

function randomLooking(stretch: string): boolean {
  if (stretch.length < 20 || !/[0-9]/.test(stretch) || !/[A-Za-z]/.test(stretch) || /^[0-9a-f]+$/i.test(stretch)) return false;
  return (/[a-z]/.test(stretch) && /[A-Z]/.test(stretch)) || stretch.length >= 24;
}

/** Whether a string taken whole is token-shaped (see above). */
export function isTokenShaped(text: string): boolean {
  if (WELL_KNOWN_WHOLE.test(text)) return true;
  return /^[A-Za-z0-9_-]+=*$/.test(text) && text.replace(/=+$/, '').split(/[-_]/).some(randomLooking);
}

/** The text with every token-shaped string in it replaced by `mask`. */
export function tokensMasked(text: string, mask: string): string {
  return text.replace(CANDIDATE, (candidate) => (isTokenShaped(candidate) ? mask : candidate));
}

/**
 * Whether a value where a name or a key may stand (the exchange format's "key", a gateway's own name for a key)
 * is a key: token-shaped, or one word of 16 characters or more holding letters and digits. A gateway's name
 * for a key ("pro-1", "partner-7", "mobile-app") is shorter or has no digit.
 */
export function looksLikeKey(value: string): boolean {
  const trimmed = value.trim();
  return isTokenShaped(trimmed) || (/^\S{16,}$/.test(trimmed) && /[0-9]/.test(trimmed) && /[A-Za-z]/.test(trimmed));
}

/** What a request or an answer carries that may be echoed elsewhere. */
export interface CarriedParts {
  url?: string;
  /** Names in any case. */
  headers?: Readonly<Record<string, string>>;
  body?: string;
}

/**
 * The credentials carried by position (see above), to be replaced wherever else they occur: a key sent in
 * ?x-api-key= and echoed in the answer's body, a cookie's session echoed in an error. Authorization is not read
 * here: who reads it (the judge's key book, the recorder) names its key.
 */
export function credentialsCarried(parts: CarriedParts): string[] {
  const found: string[] = [];
  if (parts.url !== undefined) {
    const query = parts.url.indexOf('?');
    if (query >= 0) for (const [name, value] of new URLSearchParams(parts.url.slice(query + 1))) takeNamed(found, name, value);
  }
  const headers = parts.headers ?? {};
  // Names one by one, not Object.entries: this runs for every exchange a judge reads, with every header.
  for (const name in headers) {
    const carrying = carryingOf(name);
    if (carrying === CARRIES_NOTHING) continue;
    const value = headers[name] as string;
    if (carrying === CARRIES_COOKIES) {
      for (const pair of value.split(/[;,]/)) {
        const at = pair.indexOf('=');
        if (at > 0 && (isKeyLikeName(pair.slice(0, at).trim()) || looksLikeKey(pair.slice(at + 1).trim()))) keepWorthReplacing(found, pair.slice(at + 1).trim());
      }
    } else takeNamed(found, name, value);
  }
  if (parts.body !== undefined && /^\s*[[{]/.test(parts.body)) {
    try {
      collectMembers(JSON.parse(parts.body) as unknown, found);
    } catch {
      // Not JSON: the masks by position and shape still apply to it as text.
    }
  }
  return found;
}

/** How a header may carry a credential by position: not at all, in its cookies, or as its value under a key-like name. */
const CARRIES_NOTHING = 0;
const CARRIES_COOKIES = 1;
const CARRIES_BY_NAME = 2;
type Carrying = typeof CARRIES_NOTHING | typeof CARRIES_COOKIES | typeof CARRIES_BY_NAME;

/** By header name: a capture sends the same few with every exchange. Authorization is its reader's (see above). */
const carryingByName = new BoundedMemo<string, Carrying>(REMEMBERED_NAMES);

function carryingOf(name: string): Carrying {
  const known = carryingByName.get(name);
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  const carrying = lower === 'authorization' || lower === 'proxy-authorization' ? CARRIES_NOTHING : lower === 'cookie' || lower === 'set-cookie' ? CARRIES_COOKIES : isKeyLikeName(name) ? CARRIES_BY_NAME : CARRIES_NOTHING;
  carryingByName.set(name, carrying);
  return carrying;
}

/** A value under a name: kept when the name is key-like (a bare "key" only when its value looks like one). */
function takeNamed(found: string[], name: string, value: string): void {
  if (isKeyLikeName(name) && (name.toLowerCase() !== 'key' || looksLikeKey(value))) keepWorthReplacing(found, value);
}

function keepWorthReplacing(found: string[], value: string): void {
  if (worthReplacing(value)) found.push(value);
}

/**
 * A value under a key-like name that is replaced wherever else it occurs: 8 characters or more, not letters alone.
 * "bearer" in {"token_type": "bearer"}, or "required" under "auth", is no credential, and replacing such a word
 * everywhere would garble the report; where it stands, under its name, it is masked all the same.
 */
function worthReplacing(value: string): boolean {
  return value.length >= 8 && !/^[A-Za-z]+$/.test(value);
}

function collectMembers(value: unknown, found: string[]): void {
  if (Array.isArray(value)) for (const item of value) collectMembers(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      if (typeof inner === 'string') takeNamed(found, name, inner);
      else collectMembers(inner, found);
    }
  }
}
